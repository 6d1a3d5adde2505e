/**
 * Templates rendered at build time, before the library bundle's V8 code cache is written (scripts/bundle-cli.mjs):
 * the cache holds the compiled code of the functions these renders ran, so a fresh process renders its first
 * template without compiling the lexer, parser, interpreter and common functions first. They touch what
 * templates commonly use (typed parameters and defaults, conditionals, loops over arrays and hashes,
 * map/join/filter/reduce, interpolation, access, comparison, arithmetic, selectors, case), not any one
 * template.
 */
import { compileEpp, renderEpp } from './epp.js';

const CONFIG = `<%- |
  String[1] $name,
  Integer[1, 65535] $port,
  Enum['a', 'b'] $mode,
  Boolean $enabled,
  Optional[String] $note = undef,
  Array[String] $tags = [],
  Hash[String, String] $labels = {},
  Array[Hash[String, Data]] $items,
  Float $ratio = 2.5,
  String $dir = "/var/\${name}",
| -%>
# <%= $name %> (<%= $mode %>)
<% if $tags.empty { -%>
none
<% } elsif $tags.length > 2 { -%>
many: <%= $tags.join(', ') %>
<% } else { -%>
<%= $tags[0] %>
<% } -%>
<% unless $note =~ Undef { %>note = "<%= $note %>"<% } %>
<% $labels.each |$k, $v| { -%>
<%= $k %> = "<%= $v %>"
<% } -%>
<% $items.each |$i, $item| { -%>
[<%= $item['name'] %>] <%= $i + 1 %>/<%= $items.length %> <%= $item['port'] * 2 %> <%= $ratio * $item['port'] %>
<%   if $item['tags'] and !$item['tags'].empty { -%>
tags = [<%= $item['tags'].map |$t| { "\\"\${t}\\"" }.join(', ') %>]
<%   } -%>
<% } -%>
<%- $weights = $items.filter |$x| { $x['port'] > 1 }.map |$x| { $x['port'] } -%>
total = <%= $weights.reduce(0) |$m, $w| { $m + $w } %> <%= $enabled ? { true => 'on', default => 'off' } %>
<% case $mode { 'a': { %>A<% } default: { %>other<% } } %> <%= "\${dir}/x.log" %> <%= $port == 80 %>
`;

const VALUES = {
  name: 'svc',
  port: 8080,
  mode: 'a',
  enabled: true,
  note: 'hi',
  tags: ['x', 'y', 'z'],
  labels: { team: 'ops', tier: 'one' },
  items: [
    { name: 'one', port: 1, tags: ['a'] },
    { name: 'two', port: 2, tags: [] },
  ],
};

/**
 * The operators and forms CONFIG leaves out (a function the warm-up never ran is compiled from source when a
 * fresh process first runs it): the other comparisons and arithmetic, `unless`/`else`, string cases and
 * selectors that miss before they match, `in`, `=~` with captures, nested access, a loop's index arithmetic.
 */
const OPERATORS = `<%- | Array[Hash] $rows, Integer $n = 7, String $role = 'api' | -%>
<% $rows.each |$i, $row| { -%>
<%= $i - 1 %> <%= $n / 2 %> <%= $n % 3 %> <%= $n / 2.0 %> <%= $n - 0.5 %> <%= -$n %>
<%= $row['w'] < 50 %> <%= $row['w'] <= 50 %> <%= $row['w'] >= 50 %> <%= $row['name'] != 'x' %>
<% unless $row['on'] { %>off<% } else { %>on<% } -%>
<% case $row['role'] { 'web', 'db': { %>w<% } 'API': { %>a<% } default: { %>d<% } } -%>
<%= $row['role'] ? { 'web' => 1, 'Worker' => 2, default => 3 } %> <%= 'api' in $row['tags'] %>
<% if $row['name'] =~ /^([a-z]+)-([0-9]+)$/ { %><%= $1 %>#<%= $2 %><% } %> <%= $row['meta']['zone'] %>
<% } -%>
<%= $rows.length - $rows.filter |$r| { $r['on'] }.length %> <%= $role == 'API' %> <%= "n=\${n}" %>
`;

const OPERATOR_VALUES = {
  rows: [
    { name: 'app-01', w: 37, on: true, role: 'api', tags: ['api'], meta: { zone: 'a' } },
    { name: 'app-02', w: 74, on: false, role: 'worker', tags: [], meta: { zone: 'b' } },
    { name: 'db', w: 50, on: true, role: 'web', tags: ['x'], meta: { zone: 'c' } },
  ],
};

/**
 * Renders the warm-up templates `times` times (three: the first two renders are interpreted, the third
 * compiled), through both entries a library user calls (`renderEpp`, and `compileEpp(...).render(values)`
 * without options, which has a path of its own).
 */
export function warmUpRenders(times = 3): void {
  for (let i = 0; i < times; i++) renderEpp(CONFIG, VALUES, { file: 'warm-up.epp' });
  const operators = compileEpp(OPERATORS, { file: 'warm-up-operators.epp' });
  for (let i = 0; i < times; i++) operators.render(OPERATOR_VALUES);
}
