// `npm run bench`: every benchmark, each printing its peers side by side and their ratio.
// BENCH=generate,validators,breakers,dispatch,sessions,http,client,soak,size,scale,typecheck picks some; BENCH_ROUNDS sets the rounds. For generate,
// BENCH_SCALES (default 1,5,20: copies of the schema) and BENCH_SCALE_ROUNDS (default 3) set
// the scale table; at 20 copies one mcp-gen round takes tens of seconds.
import { benchClient } from "./client.mjs";
import { benchDispatch } from "./dispatch.mjs";
import { benchGenerate } from "./generate.mjs";
import { benchHttp } from "./http.mjs";
import { benchScale } from "./scale.mjs";
import { benchSessions } from "./sessions.mjs";
import { benchSize } from "./size.mjs";
import { benchSoak } from "./soak.mjs";
import { benchTypecheck } from "./typecheck.mjs";
import { benchValidatorBreakers } from "./validator-breakers.mjs";
import { benchValidators } from "./validators.mjs";

const all = {
  generate: benchGenerate,
  validators: benchValidators,
  breakers: benchValidatorBreakers,
  dispatch: benchDispatch,
  sessions: benchSessions,
  http: benchHttp,
  client: benchClient,
  soak: benchSoak,
  size: benchSize,
  scale: benchScale,
  typecheck: benchTypecheck,
};
const chosen = (process.env.BENCH ?? Object.keys(all).join(",")).split(",");
for (const name of chosen) await all[name]();
