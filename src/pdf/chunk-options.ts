// options.chunk: a report whose data holds one long array is rendered once per slice of it, each slice
// printed on its own, the parts joined into one PDF with continuous page numbers and one outline
// (src/modules/reports/chunked.ts). Here: the option's shape, what a schema cannot check about it, and
// the data each chunk's template run gets. Pure.

/** Rows per chunk: fewer makes too many parts to join; more brings back the big print's memory. */
export const CHUNK_SIZE = { min: 100, max: 20_000 } as const;
/** Parts one report may be cut into: past this, a bigger size is the fix. */
export const MAX_CHUNKS = 1_000;

/** options.chunk as a client sends it and a report row stores it. */
export interface ChunkRequest {
  /** The data's array to slice: a key of data, or a dotted path of keys (e.g. "ledger.rows"). */
  array: string;
  size: number;
}

/** What each chunk's template run gets besides its slice: the variable `chunk`. */
export interface ChunkInfo {
  index: number;
  count: number;
  /** The position in the whole array of the slice's first row, from 0. */
  first_row: number;
}

const PATH_RE = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*){0,7}$/;

/** The value at `path` (dotted keys) of `data`, or undefined when a key on the way is missing. */
export function valueAt(data: unknown, path: string): unknown {
  let v = data;
  for (const key of path.split(".")) {
    if (typeof v !== "object" || v === null || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** `data` with the array at `path` replaced by `slice`, and the variable chunk set (data is not changed). */
export function chunkData(data: Record<string, unknown>, path: string, slice: unknown[], info: ChunkInfo): Record<string, unknown> {
  const put = (obj: Record<string, unknown>, keys: string[]): Record<string, unknown> => {
    const [head, ...rest] = keys as [string, ...string[]];
    return { ...obj, [head]: rest.length ? put(obj[head] as Record<string, unknown>, rest) : slice };
  };
  return { ...put(data, path.split(".")), chunk: info };
}

/** The chunks of an array of `length` items at `size` per chunk (at least one, for an empty array). */
export function chunkCount(length: number, size: number): number {
  return Math.max(1, Math.ceil(length / size));
}

/** Whether a header or footer template asks Chromium for page numbers (which would count per chunk). */
const PAGE_NUMBER_CLASS_RE = /class\s*=\s*["']?[^"'>]*\b(pageNumber|totalPages)\b/;

type Problem = { field: string; problem: string };

/**
 * What a schema cannot check about options.chunk: the engine, the array in the data, the options that
 * would come out wrong once the parts are joined. Each problem names its field.
 */
export function chunkProblems(
  chunk: ChunkRequest,
  o: { engine: string; data: unknown; header_template?: string; footer_template?: string; page_ranges?: string },
  maxRows: number,
): Problem[] {
  const problems: Problem[] = [];
  if (o.engine !== "ejs") return [{ field: "options.chunk", problem: 'chunks slice the data of an ejs template: use engine "ejs"' }];
  if (!PATH_RE.test(chunk.array))
    problems.push({ field: "options.chunk.array", problem: 'must be a key of data, or a dotted path of keys such as "ledger.rows"' });
  else {
    const arr = valueAt(o.data, chunk.array);
    if (!Array.isArray(arr))
      problems.push({
        field: "options.chunk.array",
        problem: `data.${chunk.array} is ${arr === undefined ? "missing" : `not an array (${arr === null ? "null" : typeof arr})`}: name the array of rows to slice`,
      });
    else if (arr.length > maxRows)
      problems.push({
        field: `data.${chunk.array}`,
        problem: `has ${arr.length} rows; a chunked report may have ${maxRows} (--chunk-max-rows): split it into several reports`,
      });
    else if (chunkCount(arr.length, chunk.size) > MAX_CHUNKS)
      problems.push({
        field: "options.chunk.size",
        problem: `${arr.length} rows at ${chunk.size} per chunk make more than ${MAX_CHUNKS} chunks: use a size of at least ${Math.ceil(arr.length / MAX_CHUNKS)}`,
      });
  }
  for (const f of ["header_template", "footer_template"] as const)
    if (o[f] && PAGE_NUMBER_CLASS_RE.test(o[f]!))
      problems.push({
        field: `options.${f}`,
        problem:
          "Chromium numbers each chunk's pages on its own: leave pageNumber and totalPages out and use options.page_numbers, which numbers the whole report",
      });
  if (o.page_ranges)
    problems.push({
      field: "options.page_ranges",
      problem: "would apply to each chunk: not with options.chunk (merge the pages you want instead)",
    });
  return problems;
}
