package io.drover.core.engine;

import io.drover.core.template.NomadQuery;
import io.drover.core.template.TemplateException;
import io.drover.core.template.VarItems;
import io.drover.core.vars.Variable;
import io.drover.core.vars.VariablePaths;
import io.drover.core.vars.VariableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A template's reads of Nomad variables, answered as consul-template answers them: {@code nomadVar} gives the
 * variable's {@link VarItems}, and when it is absent the render waits (a {@link TemplateException#waiting} one: Nomad's
 * task does not start until it exists); {@code nomadVarExists} a boolean; {@code nomadVarList} the metadata of the
 * variables under a prefix, {@code nomadVarListSafe} the same but empty where {@code nomadVarList} fails for lack
 * of permission. With ACLs on ({@link VariableStore#restrictTasks}) a task reads only what its workload identity
 * allows (Nomad's implicit policy, {@link VariablePaths#taskMayRead}). In-memory reads; thread-safe.
 *
 * @param identity job, group, task
 */
record VariableReads(VariableStore store, List<String> identity) {
    Object answer(NomadQuery q, String namespace) throws TemplateException {
        String path = q.name() == null ? "" : q.name();
        switch (q.kind()) {
            case VAR, VAR_EXISTS -> {
                List<String> problems = VariablePaths.problems(path);
                if (!problems.isEmpty()) {
                    throw new TemplateException(name(q) + ": " + problems.get(0));
                }
                boolean allowed = mayRead(path);
                Optional<Variable> v = store == null || !allowed ? Optional.empty() : store.get(namespace, path);
                if (q.kind() == NomadQuery.Kind.VAR_EXISTS) {
                    return v.isPresent();
                }
                if (!allowed) {
                    throw new TemplateException("nomadVar: Permission denied: the task's workload identity may not "
                            + "read \"" + path + "\" (only nomad/jobs, nomad/jobs/" + identity.get(0) + "[/"
                            + identity.get(1) + "[/" + identity.get(2) + "]])");
                }
                return v.map(x -> new VarItems(x.items(), x.metadata())).orElseThrow(
                        () -> new TemplateException("Missing: nomad.var.block(" + path + "@" + namespace + ")", true));
            }
            default -> {
                List<Map<String, Object>> out = new ArrayList<>();
                if (store == null) {
                    return out;
                }
                boolean denied = false;
                for (Variable v : store.list(namespace, path)) {
                    if (mayRead(v.path())) {
                        out.add(v.metadata());
                    } else {
                        denied = true;
                    }
                }
                if (denied && q.kind() == NomadQuery.Kind.VAR_LIST && out.isEmpty()) {
                    throw new TemplateException("nomadVarList: Permission denied listing \"" + path + "\"");
                }
                return out;
            }
        }
    }

    private boolean mayRead(String path) {
        return store == null || !store.restrictTasks()
                || VariablePaths.taskMayRead(path, identity.get(0), identity.get(1), identity.get(2));
    }

    private static String name(NomadQuery q) {
        return q.kind() == NomadQuery.Kind.VAR_EXISTS ? "nomadVarExists" : "nomadVar";
    }
}
