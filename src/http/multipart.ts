// A multipart/form-data body (an upload from a browser form or `curl -F`), read within the body limit
// like a JSON one, as a plain object: text fields as strings, each file as { filename, type,
// content_base64 }, so the route checks one shape whichever way the client sent it.
import { AppError } from "../lib/errors";

export interface MultipartFile {
  filename: string;
  type: string;
  content_base64: string;
}

export async function multipartBody(request: Request, bytes: Uint8Array): Promise<Record<string, string | MultipartFile>> {
  let form: FormData;
  try {
    form = await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
      headers: { "content-type": request.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new AppError(
      "validation_failed",
      "the multipart/form-data body cannot be parsed: send a well-formed form (its boundary as in Content-Type), or JSON",
      [{ field: "body", problem: "malformed multipart/form-data" }],
    );
  }
  const out: Record<string, string | MultipartFile> = {};
  for (const [key, value] of form) {
    if (key in out) continue; // the first of a repeated field counts
    out[key] =
      typeof value === "string"
        ? value
        : { filename: value.name, type: value.type, content_base64: Buffer.from(await value.arrayBuffer()).toString("base64") };
  }
  return out;
}
