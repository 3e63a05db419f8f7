// The chain a signature embeds: the signer's certificate, then each issuer found among the file's
// certificates, in order. Certificates of the file that are not on the signer's path are left out.
import type { X509Certificate } from "node:crypto";

export function certificateChain(leaf: X509Certificate, all: X509Certificate[]): X509Certificate[] {
  const chain = [leaf];
  let current = leaf;
  while (chain.length < 10) {
    if (current.checkIssued(current)) break; // self-signed: the root
    const issuer = all.find((c) => !chain.includes(c) && current.checkIssued(c) && current.verify(c.publicKey));
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}
