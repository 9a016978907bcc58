// /ui/plugins: every loaded driver with its version, provider, health and, where the agent gives one, its
// config schema; and the plugin problems the agent met while loading.
import { get } from './api.js';
import { h, statusBadge } from './dom.js';

function schemaView(schema) {
  if (schema === null || schema === undefined) return null;
  if (typeof schema !== 'object') return h('code', null, String(schema));
  if (Array.isArray(schema)) return h('ul', null, schema.map((x) => h('li', null, schemaView(x))));
  return h('dl', { class: 'schema' }, Object.entries(schema).flatMap(([k, v]) =>
    [h('dt', null, k), h('dd', null, schemaView(v))]));
}

export async function pluginsPage() {
  const [plugins, problems] = await Promise.all([get('/v1/plugins'), get('/v1/plugins/problems')]);
  const el = h('section', { class: 'page', id: 'plugins-page' }, h('div', { class: 'page-head' }, h('h1', null, 'Plugins')),
    h('table', { class: 'list', id: 'plugins-table' },
      h('thead', null, h('tr', null, ['Driver', 'Version', 'Provider', 'Health', 'Plugin JAR'].map((c) => h('th', null, c)))),
      h('tbody', null, plugins.map((p) => h('tr', { 'data-driver': p.Name },
        h('td', null, p.Name, h('div', { class: 'muted' }, p.PluginID)),
        h('td', null, p.Version), h('td', null, p.Provider),
        h('td', null, statusBadge(p.Health), h('div', { class: 'muted' }, p.HealthDescription)),
        h('td', { class: 'mono' }, p.Path))))),
    plugins.filter((p) => p.ConfigSchema).map((p) => h('div', { class: 'schema-box', 'data-schema': p.Name },
      h('h2', null, `${p.Name} config schema`), schemaView(p.ConfigSchema))),
    problems.Problems.length ? h('div', { id: 'plugin-problems' }, h('h2', null, 'Problems'),
      h('ul', null, problems.Problems.map((x) => h('li', { class: 'error' }, x)))) : null);
  return { name: 'plugins', el };
}
