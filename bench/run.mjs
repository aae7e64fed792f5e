// `npm run bench`: every benchmark, each printing its peers side by side and their ratio.
import { benchGenerate } from "./generate.mjs";

benchGenerate();
