// The TypeScript SDK's client, for TestTypeScriptClient: it runs the command
// given on its command line (the proxy before the reference server) over
// stdio, makes the calls below and prints what it got as one JSON object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "ts-client", version: "1.0.0" }, { capabilities: { sampling: {} } });
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  model: "test-model",
  role: "assistant",
  content: { type: "text", text: "sampled" },
}));
await client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));

async function call(name, args, options) {
  try {
    const r = await client.callTool({ name, arguments: args }, undefined, options);
    return { isError: !!r.isError, text: r.content.map((c) => c.text ?? "").join("") };
  } catch (e) {
    return { error: String(e.message) };
  }
}

const out = {};
out.stringNumber = await call("get-sum", { a: "5", b: 2 });
out.objectForString = await call("echo", { message: { x: [1, 2] } });
out.unfixable = await call("get-sum", { a: "five", b: 2 });
out.fits = await call("get-sum", { a: 1, b: 2 });
let progress = 0;
out.longRunning = await call("trigger-long-running-operation", { duration: 0.3, steps: 3 }, { onprogress: () => progress++ });
out.progress = progress;
out.sampling = await call("trigger-sampling-request", { prompt: "hi", maxTokens: 10 });
out.promptMessages = (await client.getPrompt({ name: "args-prompt", arguments: { city: "Paris" } })).messages.length;
out.resources = (await client.listResources()).resources.length;
console.log(JSON.stringify(out));
await client.close();
