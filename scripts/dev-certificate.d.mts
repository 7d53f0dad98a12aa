/** Types of dev-certificate.mjs for the TypeScript that imports it (the tests' HTTPS receivers). */
export function makeDevCertificate(): { key: string; cert: string };
