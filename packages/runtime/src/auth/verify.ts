// @mcp-gen/runtime/auth/verify: verifying access tokens (JWT, RFC 9068) and DPoP proofs
// (RFC 9449) with jose, an optional peer dependency.
export * from "./jwt.js";
export * from "./dpop-proof.js";
