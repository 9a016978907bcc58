package io.drover.nomad;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Drover's .proto declarations are wire-identical to Nomad's own (the reference files in
 * shared/nomad-plugin-protocol, compiled here by the build's protoc): for every service, method, message, field
 * and enum Drover declares, the same full names, field numbers, names, types, labels, type references, oneofs,
 * packing and streaming, and no field of a declared message is missing.
 */
class WireIdentityTest {
    private static Map<String, DescriptorProto> refMessages;
    private static Map<String, EnumDescriptorProto> refEnums;
    private static Map<String, ServiceDescriptorProto> refServices;

    @BeforeAll
    static void compileReference() throws Exception {
        Path ref = Path.of(System.getProperty("drover.nomad.reference"));
        Path include = GoClientScenarioTest.extractWellKnownProtos(Path.of("target/wire-include"));
        Path protoc = Path.of(System.getProperty("drover.nomad.protoc"));
        protoc.toFile().setExecutable(true);
        Path out = Files.createTempFile(Path.of("target"), "reference-", ".pb");
        Process p = new ProcessBuilder(protoc.toString(), "-I", ref.toString(), "-I", include.toString(),
                "--include_imports", "--descriptor_set_out=" + out, "plugins/base/proto/base.proto",
                "plugins/drivers/proto/driver.proto", "plugins/shared/hclspec/hcl_spec.proto",
                "plugins/shared/structs/proto/attribute.proto").redirectErrorStream(true).start();
        String msg = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("protoc on the reference: " + msg).isZero();
        FileDescriptorSet set = FileDescriptorSet.parseFrom(Files.readAllBytes(out));
        refMessages = new TreeMap<>();
        refEnums = new TreeMap<>();
        refServices = new TreeMap<>();
        for (FileDescriptorProto f : set.getFileList()) {
            String pkg = "." + f.getPackage();
            f.getMessageTypeList().forEach(m -> index(pkg, m, refMessages, refEnums));
            f.getEnumTypeList().forEach(e -> refEnums.put(pkg + "." + e.getName(), e));
            f.getServiceList().forEach(s -> refServices.put(pkg + "." + s.getName(), s));
        }
    }

    private static void index(String scope, DescriptorProto m, Map<String, DescriptorProto> messages,
            Map<String, EnumDescriptorProto> enums) {
        String name = scope + "." + m.getName();
        messages.put(name, m);
        m.getNestedTypeList().forEach(n -> index(name, n, messages, enums));
        m.getEnumTypeList().forEach(e -> enums.put(name + "." + e.getName(), e));
    }

    static List<FileDescriptor> mine() {
        return List.of(io.drover.nomad.proto.base.BaseProto.getDescriptor(),
                io.drover.nomad.proto.driver.DriverProto.getDescriptor(),
                io.drover.nomad.proto.hclspec.HclSpecProto.getDescriptor(),
                io.drover.nomad.proto.structs.AttributeProto.getDescriptor());
    }

    @Test
    void everyMessageFieldAndEnumMatchesNomads() {
        Map<String, DescriptorProto> messages = new TreeMap<>();
        Map<String, EnumDescriptorProto> enums = new TreeMap<>();
        for (FileDescriptor f : mine()) {
            FileDescriptorProto proto = f.toProto();
            String pkg = "." + proto.getPackage();
            proto.getMessageTypeList().forEach(m -> index(pkg, m, messages, enums));
            proto.getEnumTypeList().forEach(e -> enums.put(pkg + "." + e.getName(), e));
        }
        assertThat(messages).hasSizeGreaterThan(60);
        List<String> problems = new ArrayList<>();
        messages.forEach((name, m) -> {
            DescriptorProto r = refMessages.get(name);
            if (r == null) {
                problems.add(name + ": not in Nomad's protocol");
                return;
            }
            Map<Integer, FieldDescriptorProto> refFields = new TreeMap<>();
            r.getFieldList().forEach(f -> refFields.put(f.getNumber(), f));
            Map<Integer, FieldDescriptorProto> myFields = new TreeMap<>();
            m.getFieldList().forEach(f -> myFields.put(f.getNumber(), f));
            if (!refFields.keySet().equals(myFields.keySet())) {
                problems.add(name + ": fields " + myFields.keySet() + " vs Nomad's " + refFields.keySet());
            }
            myFields.forEach((n, f) -> {
                FieldDescriptorProto rf = refFields.get(n);
                if (rf != null && !same(f, rf, m, r)) {
                    problems.add(name + "." + f.getName() + " (" + n + "): " + shape(f, m) + " vs Nomad's "
                            + shape(rf, r));
                }
            });
        });
        enums.forEach((name, e) -> {
            EnumDescriptorProto r = refEnums.get(name);
            if (r == null) {
                problems.add(name + ": enum not in Nomad's protocol");
            } else if (!values(e).equals(values(r))) {
                problems.add(name + ": " + values(e) + " vs Nomad's " + values(r));
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void everyServiceAndMethodMatchesNomads() {
        List<String> problems = new ArrayList<>();
        int methods = 0;
        for (FileDescriptor f : mine()) {
            for (ServiceDescriptorProto s : f.toProto().getServiceList()) {
                String name = "." + f.getPackage() + "." + s.getName();
                ServiceDescriptorProto r = refServices.get(name);
                if (r == null) {
                    problems.add(name + ": not in Nomad's protocol");
                    continue;
                }
                Map<String, String> refMethods = new TreeMap<>();
                r.getMethodList().forEach(m -> refMethods.put(m.getName(), method(m)));
                Map<String, String> myMethods = new TreeMap<>();
                s.getMethodList().forEach(m -> myMethods.put(m.getName(), method(m)));
                methods += myMethods.size();
                if (!refMethods.equals(myMethods)) {
                    problems.add(name + ": " + myMethods + " vs Nomad's " + refMethods);
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(methods).isEqualTo(21); // BasePlugin 3 + Driver 18
    }

    private static String method(MethodDescriptorProto m) {
        return (m.getClientStreaming() ? "stream " : "") + m.getInputType() + " -> "
                + (m.getServerStreaming() ? "stream " : "") + m.getOutputType();
    }

    private static boolean same(FieldDescriptorProto a, FieldDescriptorProto b, DescriptorProto am,
            DescriptorProto bm) {
        return shape(a, am).equals(shape(b, bm));
    }

    /** What the wire and JSON depend on: name, type, label, referenced type, oneof, packing, proto3 optional. */
    private static String shape(FieldDescriptorProto f, DescriptorProto owner) {
        String oneof = f.hasOneofIndex() ? owner.getOneofDecl(f.getOneofIndex()).getName() : "";
        boolean packed = !f.getOptions().hasPacked() || f.getOptions().getPacked(); // proto3 packs by default
        return f.getName() + " " + f.getType() + " " + f.getLabel() + " " + f.getTypeName() + " oneof=" + oneof
                + " packed=" + packed + " optional=" + f.getProto3Optional() + " json=" + json(f);
    }

    /** protoc writes json_name; a runtime descriptor leaves it out when it is the default (lowerCamel of name). */
    private static String json(FieldDescriptorProto f) {
        if (!f.getJsonName().isEmpty()) {
            return f.getJsonName();
        }
        StringBuilder sb = new StringBuilder();
        boolean up = false;
        for (char c : f.getName().toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return sb.toString();
    }

    private static Map<String, Integer> values(EnumDescriptorProto e) {
        Map<String, Integer> m = new TreeMap<>();
        e.getValueList().forEach(v -> m.put(v.getName(), v.getNumber()));
        return m;
    }
}
