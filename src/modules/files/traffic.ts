// What an instance sends to and reads from its bucket: objects' bytes (the HTTP framing and S3's XML
// answers left out) and requests, for PDFs and for asset blobs. One per instance, shared by the S3 PDF
// store and the S3 asset blobs, read at scrape time by /metrics (reportgen_bucket_*_total). It tells
// what a cluster costs in the bucket per report, and an operator what to expect on the bucket's bill.

export type TrafficKind = "pdf" | "asset";

export class BucketTraffic {
  readonly sentBytes: Record<TrafficKind, number> = { pdf: 0, asset: 0 };
  readonly receivedBytes: Record<TrafficKind, number> = { pdf: 0, asset: 0 };
  readonly requests: Record<TrafficKind, number> = { pdf: 0, asset: 0 };

  sent(kind: TrafficKind, bytes: number): void {
    this.sentBytes[kind] += bytes;
  }

  received(kind: TrafficKind, bytes: number): void {
    this.receivedBytes[kind] += bytes;
  }

  request(kind: TrafficKind): void {
    this.requests[kind]++;
  }

  /** The stream as it is, its chunks counted as received as they pass (a streamed download). */
  countReceived(kind: TrafficKind, stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    return stream.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, out) => {
          this.receivedBytes[kind] += chunk.byteLength;
          out.enqueue(chunk);
        },
      }),
    );
  }
}
