// Download links as a client could spoil them; no import of the service, so black-box tests use it too.

/** The download link with its signature's first character changed (never to the same one: 1 in 64 is already "A"). */
export function tamperedLink(url: string): string {
  return url.replace(/signature=(.)/, (_m, c: string) => `signature=${c === "A" ? "B" : "A"}`);
}
