/** The tree `inspect` gives (see ../inspect.ts): the project, its templates, their files and call sites. */

/** Where a parameter's value (or, without one, its default) comes from. */
export interface InspectOrigin {
  /**
   * `default` (template.json), `shared` (a shared setting; Detail names the publishers), `project`
   * (.sync.yml; with its position), `hook` (Detail names it), `caller` (the calling file's argument, with
   * its position; Detail is the expression when the value is only known at render time) or `epp_default`
   * (the parameter's own default in the EPP file).
   */
  readonly Layer: 'default' | 'shared' | 'project' | 'hook' | 'caller' | 'epp_default';
  readonly Detail?: string;
  readonly File?: string;
  readonly Line?: number;
  readonly Column?: number;
}

export interface InspectParameter {
  /** A Puppet type for declared EPP parameters (`Array[String]`), a schema label for settings. */
  readonly Type: string;
  readonly Description: string | null;
  /** The value before the project layer, or the EPP parameter's default as source text. */
  readonly Default?: unknown;
  /** What the project or the caller supplies; `null` when the caller's value is only known at render time. */
  readonly Value?: unknown;
  readonly Origin: InspectOrigin | null;
  /** Present (true) when there is neither Default nor Value. */
  readonly Required?: true;
}

/** One `epp()` call site, keyed `<path as written>@<line>:<column>` in its caller's NestedParameters. */
export interface InspectCall {
  /** The template path as written (`partials/gem.epp`); null when it is computed at render time. */
  readonly Type: string | null;
  /** The partial's leading `<%# %>` comment, or null. */
  readonly Description: string | null;
  /** Absolute path of the partial, when found. */
  readonly File: string | null;
  /** Where the call is in the calling file. */
  readonly Line: number;
  readonly Column: number;
  readonly Parameters: Readonly<Record<string, InspectParameter>>;
  readonly NestedParameters: Readonly<Record<string, InspectCall>>;
  /** Why the partial could not be inspected (not found, computed path, syntax error, recursion). */
  readonly Error?: string;
}

/** One file of a template, keyed by its path inside the template (`files/Gemfile.epp`). */
export interface InspectFile {
  /** The project-relative output path. */
  readonly Path: string;
  /** `file` (files/) or `init` (files_init/, rendered for new projects only). */
  readonly Kind: 'file' | 'init';
  /** True for `.epp` files; others are copied byte for byte. */
  readonly Template: boolean;
  /** Whether this project renders it now (init files of an existing project and files a hook drops do not). */
  readonly Rendered: boolean;
  readonly File: string;
  readonly Description: string | null;
  /** Declared parameters; for a file that declares none, the settings it reads. */
  readonly Parameters: Readonly<Record<string, InspectParameter>>;
  readonly NestedParameters: Readonly<Record<string, InspectCall>>;
  readonly Error?: string;
}

export interface InspectTemplate {
  readonly Type: string;
  readonly Description: string;
  /** template.json's `name`. */
  readonly Title: string;
  readonly Version: string | null;
  readonly Source: {
    readonly Index: number;
    readonly Type: string;
    readonly Location: string;
    readonly Ref?: string;
    readonly Commit?: string;
  };
  /** Its settings. */
  readonly Parameters: Readonly<Record<string, InspectParameter>>;
  readonly Files: Readonly<Record<string, InspectFile>>;
}

export interface InspectTree {
  readonly Project: { readonly Name: string; readonly Root: string; readonly IsNew: boolean };
  /** The applied templates, in applied order. */
  readonly Templates: Readonly<Record<string, InspectTemplate>>;
}
