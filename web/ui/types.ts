/** What the API of `pantograph ui` answers (src/ui/api.ts), as the page reads it. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = { [key: string]: Json };

export interface CatalogueEntry {
  name: string;
  description: string;
  tags: string[];
  version: string | null;
  alwaysApply: boolean;
  applied: boolean;
  source: string;
}

/** A V1 or modulesync `.sync.yml`: the repository that renders it, and where it was named. */
export interface V1Repository {
  kind: 'pdk' | 'modulesync';
  url: string;
  origin: '--template-url' | 'metadata.json' | '.pantograph.lock';
}

export interface SettingInfo {
  name: string;
  type: string;
  description: string | null;
  default: Json;
  value: Json;
  origin: { layer: string; detail?: string; line?: number; column?: number } | null;
}

export interface Form {
  template: string;
  schema: Schema;
  values: { [key: string]: Json };
  /** Settings the project tags `!replace`: its value replaces the inherited one instead of adding to it. */
  replaced?: string[];
  settings: SettingInfo[];
  /** Errors of the settings as `.sync.yml` has them (validate's), with their place in it. */
  errors?: { setting: string; message: string; line?: number; column?: number }[];
}

export interface Problem {
  severity: string;
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
}

export interface Entry {
  path: string;
  state: string;
  template?: string;
  reason?: string;
  diff?: string;
}

export interface ApplyAnswer {
  ok: boolean;
  message: string;
  base?: string;
  written?: string[];
  conflicts?: string[];
  conflictNotes?: { path: string; note: string }[];
  skipped?: { path: string; state: string; reason: string }[];
  backups?: { path: string; backup: string }[];
  problems?: Problem[];
}
