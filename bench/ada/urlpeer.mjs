// urlpeer.mjs: Node.js's WHATWG URL parser (ada inside, since Node 18.17)
// as a peer of "webcap canon": URLs one per line on stdin, each one's href
// one per line on stdout, an empty line when the parser rejects it.
//   node bench/ada/urlpeer.mjs <urls.txt >out.txt
import { createReadStream } from "node:fs";

const out = [];
let size = 0;
let rest = "";
function emit(line) {
  let href = "";
  try {
    href = new URL(line).href;
  } catch {}
  out.push(href);
  size += href.length + 1;
  if (size >= 1 << 20) flush();
}
function flush() {
  if (out.length) process.stdout.write(out.join("\n") + "\n");
  out.length = 0;
  size = 0;
}
const input = createReadStream(null, { fd: 0, encoding: "utf8", highWaterMark: 1 << 20 });
for await (const chunk of input) {
  const lines = (rest + chunk).split("\n");
  rest = lines.pop();
  for (const line of lines) emit(line);
}
if (rest !== "") emit(rest);
flush();
