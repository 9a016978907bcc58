package nomadclienttest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/protobuf/proto"

	driverpb "drover.io/nomadclienttest/pb/driver"
	hclpb "drover.io/nomadclienttest/pb/hclspec"
)

// ctyType reads the hclspec type expressions Drover's schemas use.
func ctyType(t *testing.T, expr string) cty.Type {
	switch expr {
	case "string":
		return cty.String
	case "bool":
		return cty.Bool
	case "number":
		return cty.Number
	case "list(string)":
		return cty.List(cty.String)
	case "map(string)":
		return cty.Map(cty.String)
	}
	t.Fatalf("unexpected hclspec type %q", expr)
	return cty.NilType
}

// encode does what Nomad's client does with a decoded block: a cty object of the spec's implied type, every
// attribute the user did not set null, as go-cty msgpack.
func encode(t *testing.T, spec *hclpb.Spec, values map[string]interface{}) []byte {
	t.Helper()
	attrs := spec.GetObject().GetAttributes()
	types := map[string]cty.Type{}
	vals := map[string]cty.Value{}
	for name, s := range attrs {
		attr, dflt := s.GetAttr(), cty.NilVal
		if d := s.GetDefault(); d != nil { // hcldec's Default: the literal when the user sets nothing
			attr = d.GetPrimary().GetAttr()
			dflt = literal(t, d.GetDefault().GetLiteral().GetValue(), ctyType(t, attr.GetType()))
		}
		if attr == nil {
			t.Fatalf("unexpected spec for %s: %v", name, s)
		}
		ty := ctyType(t, attr.GetType())
		types[name] = ty
		vals[name] = cty.NullVal(ty)
		if dflt != cty.NilVal {
			vals[name] = dflt
		}
	}
	for k, v := range values {
		if _, ok := types[k]; !ok {
			t.Fatalf("the schema has no %q", k)
		}
		vals[k] = ctyValue(v)
	}
	ty := cty.Object(types)
	raw, err := ctymsgpack.Marshal(cty.ObjectVal(vals), ty)
	if err != nil {
		t.Fatalf("msgpack: %v", err)
	}
	return raw
}

// literal evaluates the HCL literals Drover's defaults use: bools, numbers, quoted strings; others stay null.
func literal(t *testing.T, expr string, ty cty.Type) cty.Value {
	switch {
	case ty == cty.Bool && (expr == "true" || expr == "false"):
		return cty.BoolVal(expr == "true")
	case ty == cty.Number:
		if n, err := strconv.ParseFloat(expr, 64); err == nil {
			return cty.NumberFloatVal(n)
		}
	case ty == cty.String && len(expr) >= 2 && expr[0] == '"':
		if s, err := strconv.Unquote(expr); err == nil {
			return cty.StringVal(s)
		}
	}
	return cty.NullVal(ty)
}

// rawObject encodes values as an object of exactly those attributes (what no schema-checked client sends).
func rawObject(values map[string]interface{}) []byte {
	vals := map[string]cty.Value{}
	for k, v := range values {
		vals[k] = ctyValue(v)
	}
	obj := cty.ObjectVal(vals)
	raw, err := ctymsgpack.Marshal(obj, obj.Type())
	if err != nil {
		panic(err)
	}
	return raw
}

func ctyValue(v interface{}) cty.Value {
	switch x := v.(type) {
	case string:
		return cty.StringVal(x)
	case bool:
		return cty.BoolVal(x)
	case int:
		return cty.NumberIntVal(int64(x))
	case []string:
		if len(x) == 0 {
			return cty.ListValEmpty(cty.String)
		}
		l := make([]cty.Value, len(x))
		for i, s := range x {
			l[i] = cty.StringVal(s)
		}
		return cty.ListVal(l)
	}
	panic("unsupported value")
}

// output collects what a task writes to one of its FIFOs, as Nomad's log collector would read it.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
	f   *os.File
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// await polls (deadline 30 s) until the output contains want.
func (o *output) await(t *testing.T, want string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if s := o.String(); strings.Contains(s, want) {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("output never contained %q: %q", want, o.String())
	return ""
}

func fifo(t *testing.T, path string) *output {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	// O_RDWR: opening never blocks and the reader holds the FIFO open across writers (as a log collector does).
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open fifo: %v", err)
	}
	o := &output{f: f}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			if n > 0 {
				o.mu.Lock()
				o.buf.Write(b[:n])
				o.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { f.Close() })
	return o
}

// task is one Nomad task of an allocation: its directories (as Nomad's alloc runner lays them out) and FIFOs.
type task struct {
	cfg    *driverpb.TaskConfig
	stdout *output
	stderr *output
}

func id() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// newTask lays out <alloc_dir>/alloc/logs and <alloc_dir>/<name>/{local,secrets,tmp} and the task's FIFOs.
func newTask(t *testing.T, allocDir, allocID, name string, driverConfig []byte) *task {
	t.Helper()
	for _, d := range []string{"alloc/logs", name + "/local", name + "/secrets", name + "/tmp"} {
		if err := os.MkdirAll(filepath.Join(allocDir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stdout := filepath.Join(allocDir, "alloc/logs", "."+name+".stdout.fifo")
	stderr := filepath.Join(allocDir, "alloc/logs", "."+name+".stderr.fifo")
	tk := &task{stdout: fifo(t, stdout), stderr: fifo(t, stderr)}
	if _, err := os.Stat(stdout); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"NOMAD_TASK_NAME": name, "NOMAD_ALLOC_ID": allocID, "PATH": "/usr/local/bin:/usr/bin:/bin",
		"NOMAD_TASK_DIR": filepath.Join(allocDir, name, "local"),
	}
	if m := os.Getenv("DROVER_TEST_MARKER"); m != "" {
		env["DROVER_TEST_MARKER"] = m // the Java side proves no process carrying it is left behind
	}
	tk.cfg = &driverpb.TaskConfig{
		Id: allocID + "/" + name + "/" + id(), Name: name, AllocId: allocID, JobName: "job", JobId: "job",
		TaskGroupName: "group", AllocDir: allocDir, StdoutPath: stdout, StderrPath: stderr,
		MsgpackDriverConfig: driverConfig, Env: env,
	}
	return tk
}

// again is the next run of the same task (Nomad's restart): a new id, same alloc and name, same FIFOs.
func (tk *task) again() *driverpb.TaskConfig {
	c := proto.Clone(tk.cfg).(*driverpb.TaskConfig)
	c.Id = c.AllocId + "/" + c.Name + "/" + id()
	return c
}

// gone polls (deadline 10 s) until process pid no longer exists (or is a zombie).
func gone(pid int) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
		if err != nil {
			return true
		}
		s := string(b)
		if i := strings.LastIndex(s, ")"); i > 0 && len(s) > i+2 && s[i+2] == 'Z' {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func itoa(i int) string {
	return strconv.Itoa(i)
}

