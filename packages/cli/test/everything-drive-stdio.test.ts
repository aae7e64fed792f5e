// The generated dual-era client drives @modelcontextprotocol/server-everything (the pinned
// devDependency) over stdio through everything it offers (packages/cli/test/support/everything-drive.ts).
import { everythingDrive } from "./support/everything-drive.js";

everythingDrive("stdio");
