// The VS Code client: starts `pantograph lsp` over stdio for EPP files, template repositories'
// template.json and template_schema.json, and .sync.yml. Everything else is the server's.
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('pantograph').get('command', 'pantograph');
  // A trusted workspace's own code (JavaScript hooks, V1 templates) may run to check its .sync.yml; an
  // untrusted one's never runs (the server's default). Trust granted later restarts the server with it.
  const args = () => (vscode.workspace.isTrusted ? ['lsp', '--trust'] : ['lsp']);
  const server = { command, args: args(), transport: TransportKind.stdio };
  client = new LanguageClient(
    'pantograph',
    'Pantograph',
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: 'file', language: 'epp' },
        { scheme: 'file', pattern: '**/.sync.yml' },
        { scheme: 'file', pattern: '**/template.json' },
        { scheme: 'file', pattern: '**/template_schema.json' },
      ],
    },
  );
  context.subscriptions.push({ dispose: () => client?.stop() });
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      server.args = args();
      await client.restart();
    }),
  );
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
