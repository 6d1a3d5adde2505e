/** Small template repositories for the authors' tools tests. */
import { type Tree, tempTree } from '../helpers/fs.js';

/** A template with a schema using `$ref`, nested objects, an enum, files, init files and a hook. */
export function demoRepo(): string {
  return tempTree(demoTree());
}

export function demoTree(): Tree {
  return {
    'demo/template.json': JSON.stringify(
      {
        name: 'Demo',
        description: 'A demo template.',
        version: '1.2.3',
        tags: ['example'],
        default_settings: {
          greeting: 'Hi',
          limits: { max: 3 },
          servers: [
            { host: 'a.example.com', port: 80 },
            { host: 'b.example.com', port: 8080 },
          ],
        },
        setting_subscriptions: ['paths'],
        shared_settings: { gems: { description: 'Gems | to add.', value: ['rake'] } },
        v1_files: ['demo.conf'],
      },
      null,
      2,
    ),
    'demo/template_schema.json': JSON.stringify({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: {
        server: {
          type: 'object',
          properties: { host: { type: 'string', description: 'Host name.' }, port: { type: 'integer' } },
        },
      },
      properties: {
        greeting: { type: 'string', description: 'How to greet.\nPolitely.' },
        limits: {
          type: 'object',
          description: 'Limits.',
          properties: { max: { type: 'integer', description: 'At most.' } },
        },
        servers: { type: 'array', items: { $ref: '#/definitions/server' }, description: 'Servers.' },
        mode: { enum: ['a', 'b'] },
        paths: { type: 'array', items: { type: 'string' } },
      },
    }),
    'demo/files/demo.conf.epp': '<%- | String $greeting | -%>\n<%= $greeting %>\n',
    'demo/files/bin/run': { content: '#!/bin/sh\n', mode: 0o755 },
    'demo/files_init/NOTES.md': 'notes\n',
    'demo/hooks/after_project_settings.pp': '$state\n',
    'base/template.json': JSON.stringify({
      name: 'base',
      always_apply: true,
      shared_settings: { paths: { description: 'Paths.', value: ['/tmp'] } },
    }),
  };
}
