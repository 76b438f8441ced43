// Tokenizes cardsmith sources with VS Code's own TextMate engine (vscode-textmate on the
// Oniguruma of vscode-oniguruma), for tests/test_highlight.py. Reads a JSON list of texts on
// standard input; writes, for each text, its tokens as [offset, length, innermost-first scopes].
// Needs the development dependencies: `npm install` in editors/vscode.
"use strict";

const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const GRAMMAR = path.join(__dirname, "..", "syntaxes", "cardsmith.tmLanguage.json");

/** For each UTF-16 index of `line` (and its end), the index of its code point, as Python counts. */
function codePoints(line) {
  const at = [];
  let point = 0;
  for (let i = 0; i < line.length; i++) {
    at[i] = point;
    const unit = line.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < line.length) {
      at[++i] = point;  // the second half of a surrogate pair
    }
    point++;
  }
  at[line.length] = point;
  return at;
}

async function main() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () => textmate.parseRawGrammar(fs.readFileSync(GRAMMAR, "utf-8"), GRAMMAR),
  });
  const grammar = await registry.loadGrammar("source.cardsmith");
  const texts = JSON.parse(fs.readFileSync(0, "utf-8"));
  const result = texts.map((text) => {
    const found = [];
    let state = textmate.INITIAL;
    let offset = 0;
    for (const line of text.split("\n")) {
      const { tokens, ruleStack } = grammar.tokenizeLine(line, state);
      const at = codePoints(line);
      for (const token of tokens) {
        const start = at[token.startIndex];
        const end = at[Math.min(token.endIndex, line.length)];
        if (end > start) {
          found.push([offset + start, end - start, token.scopes.slice(1).reverse()]);
        }
      }
      state = ruleStack;
      offset += at[line.length] + 1;
    }
    return found;
  });
  process.stdout.write(JSON.stringify(result));
}

main().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
