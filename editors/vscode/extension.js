// The cardsmith extension's client: starts the language server (`cardsmith lsp`, or the command
// set in `cardsmith.server.command`) over standard input and output for the `.csm` files of the
// workspace. Highlighting needs none of this: it comes from syntaxes/cardsmith.tmLanguage.json.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

const DEFAULT_COMMAND = ["cardsmith", "lsp"];

/** @type {LanguageClient | undefined} */
let client;

/** The server's command line from the settings, or undefined (with a message) when it is unusable. */
function serverCommand() {
  const setting = vscode.workspace.getConfiguration("cardsmith").get("server.command", DEFAULT_COMMAND);
  if (!Array.isArray(setting) || setting.length === 0 || !setting.every((part) => typeof part === "string" && part)) {
    vscode.window.showErrorMessage(
      "cardsmith.server.command must be a non-empty list of strings: the command, then its arguments " +
      '(for example ["cardsmith", "lsp"]).');
    return undefined;
  }
  return setting;
}

async function startClient() {
  const command = serverCommand();
  if (!command) {
    return;
  }
  const [program, ...args] = command;
  const serverOptions = { command: program, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "cardsmith" }, { scheme: "untitled", language: "cardsmith" }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.csm") },
  };
  client = new LanguageClient("cardsmith", "cardsmith language server", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(
      `The cardsmith language server did not start (${command.join(" ")}): ${error}. ` +
      "Install cardsmith, or set cardsmith.server.command to where it is.");
  }
}

async function stopClient() {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

async function restartClient() {
  await stopClient();
  await startClient();
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("cardsmith.restartServer", restartClient),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("cardsmith.server.command")) {
        restartClient();
      }
    }),
  );
  await startClient();
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
