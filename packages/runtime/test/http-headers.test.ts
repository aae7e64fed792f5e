import { describe, expect, it } from "vitest";
import {
  checkRoutingHeaders,
  decodeHeaderValue,
  isLocalHost,
  isLocalOrigin,
  routingHeaders,
} from "../src/transport/http/headers.js";
import { PROTOCOL, request } from "./fixture.js";

describe("runtime HTTP routing headers", () => {
  it("accepts only the plain spellings of this machine as Host", () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "127.0.0.1",
      "127.0.0.1:80",
      "[::1]",
      "[::1]:8080",
      "LOCALHOST",
    ])
      expect(isLocalHost(host)).toBe(true);
    for (const host of [
      "127.1",
      "0x7f000001",
      "2130706433",
      "127.0.0.1.nip.io",
      "localhost.evil.com",
      "evil.com",
      "[::ffff:127.0.0.1]",
      "",
    ]) {
      expect(isLocalHost(host)).toBe(false);
    }
    expect(isLocalOrigin("http://localhost:5173")).toBe(true);
    expect(isLocalOrigin("https://evil.com")).toBe(false);
    expect(isLocalOrigin("null")).toBe(false);
  });

  it("sends a non-ASCII name base64-encoded, and the server decodes it", () => {
    const message = request("tools/call", 1, { name: "météo" });
    const headers = routingHeaders(PROTOCOL, message);
    expect(headers["Mcp-Name"]).toBe(`=?base64?${Buffer.from("météo").toString("base64")}?=`);
    expect(() => new Headers(headers)).not.toThrow();
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(
      checkRoutingHeaders(PROTOCOL, (name) => lower[name.toLowerCase()], message),
    ).toBeUndefined();
  });

  it("reports a missing or mismatched header", () => {
    const message = request("tools/call", 1, { name: "a" });
    const headers: Record<string, string> = {
      "mcp-method": "tools/call",
      "mcp-protocol-version": "2099-01-01",
      "mcp-name": "b",
    };
    expect(checkRoutingHeaders(PROTOCOL, (n) => headers[n.toLowerCase()], message)).toMatch(
      /Mcp-Name header "b" does not match/,
    );
    delete headers["mcp-method"];
    expect(checkRoutingHeaders(PROTOCOL, (n) => headers[n.toLowerCase()], message)).toBe(
      "missing Mcp-Method header",
    );
  });

  it("decodes only well-formed UTF-8 base64 values", () => {
    expect(decodeHeaderValue("plain")).toBe("plain");
    expect(decodeHeaderValue("=?base64?w6k=?=")).toBe("é");
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined();
  });

  it("refuses a malformed or unsafe Mcp-Name rather than comparing it literally (Value Encoding)", () => {
    const check = (name: string, header: string) =>
      checkRoutingHeaders(
        PROTOCOL,
        (n) =>
          ({
            "mcp-method": "tools/call",
            "mcp-protocol-version": "2099-01-01",
            "mcp-name": header,
          })[n.toLowerCase()],
        request("tools/call", 1, { name }),
      );
    expect(check("é", "=?base64?w6k=?=")).toBeUndefined();
    // A sentinel-shaped literal must have been encoded by the client; its Base64 is not canonical.
    expect(check("=?base64?x?=", "=?base64?x?=")).toBe("Mcp-Name header is not a valid value");
    expect(check(" a", " a")).toBe("Mcp-Name header is not a valid value");
    expect(check("caf\u00e9", "caf\u00e9")).toBe("Mcp-Name header is not a valid value");
  });
});
