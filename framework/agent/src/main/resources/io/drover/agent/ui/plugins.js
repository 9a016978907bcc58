// /ui/plugins: every loaded driver with its version, provider, health and, where the agent gives them
// (TaskConfigSchema, PluginConfigSchema: lists of {name, kind, type, required, default, allowed, keys,
// description}), its config schemas; and the plugin problems the agent met while loading.
import { get } from './api.js';
import { h, statusBadge } from './dom.js';

/** One table row per key; a block's keys follow it, indented. */
function schemaRows(keys, depth = 0) {
  return (keys || []).flatMap((k) => {
    const type = k.kind === 'attribute' ? k.type : k.kind === 'block_list'
      ? `block list${k.min_items ? `, ≥ ${k.min_items}` : ''}${k.max_items ? `, ≤ ${k.max_items}` : ''}` : 'block';
    const allowed = Array.isArray(k.allowed) && k.allowed.length ? ` (one of ${k.allowed.join(', ')})` : '';
    const row = h('tr', { 'data-key': k.name },
      h('td', { class: `mono depth-${Math.min(depth, 4)}` }, k.name),
      h('td', null, type + allowed), h('td', null, k.required ? 'required' : ''),
      h('td', { class: 'mono' }, k.default ?? ''), h('td', null, k.description || ''));
    return [row, ...schemaRows(k.keys, depth + 1)];
  });
}

function schemaTable(title, keys, driver, kind) {
  if (!Array.isArray(keys)) return null;
  return h('div', { class: 'schema-box', 'data-schema': `${driver}-${kind}` }, h('h3', null, title),
    keys.length === 0 ? h('p', { class: 'muted' }, 'no keys') : h('table', { class: 'list' },
      h('thead', null, h('tr', null, ['Key', 'Type', '', 'Default', 'Description'].map((c) => h('th', null, c)))),
      h('tbody', null, schemaRows(keys))));
}

export async function pluginsPage() {
  const [plugins, problems] = await Promise.all([get('/v1/plugins'), get('/v1/plugins/problems')]);
  const schemas = plugins.filter((p) => Array.isArray(p.TaskConfigSchema) || Array.isArray(p.PluginConfigSchema))
    .map((p) => h('div', { class: 'schemas' }, h('h2', null, `${p.Name} configuration`),
      schemaTable('Task config (job file: config { ... })', p.TaskConfigSchema, p.Name, 'task'),
      schemaTable('Plugin config (agent file: plugin "…" { config { ... } })', p.PluginConfigSchema, p.Name, 'plugin')));
  const el = h('section', { class: 'page', id: 'plugins-page' }, h('div', { class: 'page-head' }, h('h1', null, 'Plugins')),
    h('table', { class: 'list', id: 'plugins-table' },
      h('thead', null, h('tr', null, ['Driver', 'Version', 'Provider', 'Health', 'Plugin JAR'].map((c) => h('th', null, c)))),
      h('tbody', null, plugins.map((p) => h('tr', { 'data-driver': p.Name },
        h('td', null, p.Name, h('div', { class: 'muted' }, p.PluginID)),
        h('td', null, p.Version), h('td', null, p.Provider),
        h('td', null, statusBadge(p.Health), h('div', { class: 'muted' }, p.HealthDescription)),
        h('td', { class: 'mono' }, p.Path))))),
    schemas,
    problems.Problems.length ? h('div', { id: 'plugin-problems' }, h('h2', null, 'Problems'),
      h('ul', null, problems.Problems.map((x) => h('li', { class: 'error' }, x)))) : null);
  return { name: 'plugins', el };
}
