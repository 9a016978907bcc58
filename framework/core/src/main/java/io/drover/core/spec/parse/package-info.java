/**
 * Job files: {@link io.drover.core.spec.parse.JobFileParser} reads HCL (Nomad's jobspec) or JSON (Nomad's API
 * shape) into a validated {@link io.drover.core.spec.Job}; {@link io.drover.core.spec.parse.JobDriverCheck}
 * adds the checks that need the loaded drivers.
 *
 * <h2>Pipeline</h2>
 * bytes → {@link io.drover.core.spec.parse.tree.SourceText} (strict UTF-8, "not a text file") → HCL
 * ({@link io.drover.core.spec.parse.hcl.HclParser}, {@link io.drover.core.spec.parse.hcl.HclEvaluation}:
 * variables, locals, expressions, functions, dynamic blocks; then {@link io.drover.core.spec.parse.tree.HclTrees}) or JSON
 * ({@link io.drover.core.spec.parse.tree.JsonTrees} then {@code JsonJobShape}, which renames Nomad's API keys
 * to the jobspec's) → one neutral tree with lines → {@code JobMapper}, the only place that knows the schema,
 * the defaults and the validation rules.
 *
 * <h2>Messages</h2>
 * Every problem of a file at once ({@link io.drover.core.spec.parse.JobFileException#problems()}, collected by
 * {@code JobMapper} in a {@link io.drover.core.spec.parse.tree.Problems}); a syntax error is reported alone.
 * Each is one line: {@code <file>:<line>: <key>: <problem>}, the line left out when unknown (empty file, binary
 * file, no job block), the key when none applies (syntax errors). Keys are paths from the job block, each
 * block with its label, the leaf spelt as written in the file:
 * <pre>
 * job.hcl:5: job "example" > group "web" > task "api" > kill_timeout: unknown unit "sec" in duration "5sec" (use ns, us, ms, s, m or h)
 * job.json:3: job "example" > group "web" > task "api" > KillTimeOut: unknown key (allowed: Driver, Config, Env, ...)
 * job.hcl:7: job "example" > group "web" > task "api" > lifecycle > sidecar: a poststop task cannot be a sidecar
 * job.hcl:3: job "example" > group "web" > task "api" > driver: unknown driver "docker" (loaded: mock, raw_exec)
 * </pre>
 *
 * <h2>Choices where Nomad's behaviour is looser or the contract is silent</h2>
 * <ul>
 *   <li>{@code ${...}}, {@code %{...}} and the escapes <code>$${</code>/<code>%%{</code> are kept exactly as written: the
 *       interpolation at task start must turn <code>$${</code> into a literal <code>${</code>.</li>
 *   <li>Durations are Go duration strings in HCL; JSON also takes integer nanoseconds (Nomad's API).</li>
 *   <li>Booleans and numbers are not converted from strings ({@code leader = "true"} is refused); env and meta
 *       values that are numbers or bools become their text.</li>
 *   <li>{@code config}, {@code env} and {@code meta} may be written as blocks or as object attributes; a
 *       nested block inside {@code config} becomes a map, a repeated one a list of maps.</li>
 *   <li>{@code null} means unset (the key is left out); a null inside a list is refused.</li>
 *   <li>A file is JSON when its name ends with {@code .json} or its text starts with '{'.</li>
 * </ul>
 */
package io.drover.core.spec.parse;
