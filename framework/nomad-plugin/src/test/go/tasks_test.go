package nomadclienttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	driverpb "drover.io/nomadclienttest/pb/driver"
)

// configured launches a plugin, configures it and returns it with the task schema.
func configured(t *testing.T) (*launched, *driverpb.TaskConfigSchemaResponse) {
	t.Helper()
	p := launch(t)
	t.Cleanup(p.client.Kill)
	configure(t, p)
	ts, err := p.driver.TaskConfigSchema(ctx(t), &driverpb.TaskConfigSchemaRequest{})
	if err != nil {
		t.Fatalf("TaskConfigSchema: %v", err)
	}
	return p, ts
}

func sh(t *testing.T, ts *driverpb.TaskConfigSchemaResponse, script string, extra map[string]interface{}) []byte {
	v := map[string]interface{}{"command": "/bin/sh", "args": []string{"-c", script}}
	for k, x := range extra {
		v[k] = x
	}
	return encode(t, ts.Spec, v)
}

func start(t *testing.T, p *launched, cfg *driverpb.TaskConfig) *driverpb.StartTaskResponse {
	t.Helper()
	r, err := p.driver.StartTask(ctx(t), &driverpb.StartTaskRequest{Task: cfg})
	if err != nil {
		t.Fatalf("StartTask: %v", err)
	}
	return r
}

func started(t *testing.T, p *launched, cfg *driverpb.TaskConfig) *driverpb.TaskHandle {
	t.Helper()
	r := start(t, p, cfg)
	if r.Result != driverpb.StartTaskResponse_SUCCESS {
		t.Fatalf("StartTask = %v", r)
	}
	return r.Handle
}

func wait(t *testing.T, p *launched, taskID string) *driverpb.WaitTaskResponse {
	t.Helper()
	r, err := p.driver.WaitTask(ctx(t), &driverpb.WaitTaskRequest{TaskId: taskID})
	if err != nil {
		t.Fatalf("WaitTask: %v", err)
	}
	return r
}

func destroy(t *testing.T, p *launched, taskID string) {
	t.Helper()
	if _, err := p.driver.DestroyTask(ctx(t), &driverpb.DestroyTaskRequest{TaskId: taskID, Force: true}); err != nil {
		t.Fatalf("DestroyTask: %v", err)
	}
}

func TestStartWaitInspectDestroy(t *testing.T) {
	p, ts := configured(t)
	alloc := t.TempDir()
	tk := newTask(t, alloc, id(), "web", sh(t, ts, `echo "hello $NOMAD_TASK_NAME"; echo oops >&2; exit 3`, nil))
	h := started(t, p, tk.cfg)
	if h.State != driverpb.TaskState_RUNNING || len(h.DriverState) == 0 {
		t.Fatalf("handle = %v", h)
	}
	r := wait(t, p, tk.cfg.Id)
	if r.Result.ExitCode != 3 || r.Result.Signal != 0 || r.Err != "" {
		t.Fatalf("WaitTask = %v", r)
	}
	tk.stdout.await(t, "hello web")
	tk.stderr.await(t, "oops")
	in, err := p.driver.InspectTask(ctx(t), &driverpb.InspectTaskRequest{TaskId: tk.cfg.Id})
	if err != nil || in.Task.State != driverpb.TaskState_EXITED || in.Task.Result.ExitCode != 3 {
		t.Fatalf("InspectTask = %v, %v", in, err)
	}
	destroy(t, p, tk.cfg.Id)
	if _, err := p.driver.InspectTask(ctx(t), &driverpb.InspectTaskRequest{TaskId: tk.cfg.Id}); err == nil {
		t.Fatal("InspectTask after DestroyTask found the task")
	}
}

func TestBadTaskConfigIsFatalNamingTheKey(t *testing.T) {
	p, ts := configured(t)
	alloc := t.TempDir()
	// an unknown key (a client that skipped the schema) and a bad max_runtime, reported together
	raw := rawObject(map[string]interface{}{"command": "/bin/true", "comand": "x", "max_runtime": "soon"})
	r := start(t, p, newTask(t, alloc, id(), "bad", raw).cfg)
	if r.Result != driverpb.StartTaskResponse_FATAL || !strings.Contains(r.DriverErrorMsg, "comand: unknown key") {
		t.Fatalf("StartTask(unknown key) = %v", r)
	}
	r = start(t, p, newTask(t, alloc, id(), "bad2", encode(t, ts.Spec, map[string]interface{}{
		"command": "/bin/true", "max_runtime": "soon"})).cfg)
	if r.Result != driverpb.StartTaskResponse_FATAL || !strings.Contains(r.DriverErrorMsg, "max_runtime") {
		t.Fatalf("StartTask(bad max_runtime) = %v", r)
	}
	r = start(t, p, newTask(t, alloc, id(), "missing", encode(t, ts.Spec, map[string]interface{}{
		"command": "/nonexistent/cmd"})).cfg)
	if r.Result == driverpb.StartTaskResponse_SUCCESS || !strings.Contains(r.DriverErrorMsg, "/nonexistent/cmd") {
		t.Fatalf("StartTask(missing command) = %v", r)
	}
}

func TestSignalThenStop(t *testing.T) {
	p, ts := configured(t)
	alloc := t.TempDir()
	tk := newTask(t, alloc, id(), "sig", sh(t, ts,
		`trap 'echo got-usr1' USR1; echo ready; while true; do sleep 0.05; done`, nil))
	started(t, p, tk.cfg)
	tk.stdout.await(t, "ready")
	if _, err := p.driver.SignalTask(ctx(t), &driverpb.SignalTaskRequest{TaskId: tk.cfg.Id, Signal: "SIGUSR1"}); err != nil {
		t.Fatalf("SignalTask: %v", err)
	}
	tk.stdout.await(t, "got-usr1")
	if _, err := p.driver.SignalTask(ctx(t), &driverpb.SignalTaskRequest{TaskId: tk.cfg.Id, Signal: "SIGNOPE"}); err == nil {
		t.Fatal("SignalTask with an unknown signal succeeded")
	}
	_, err := p.driver.StopTask(ctx(t), &driverpb.StopTaskRequest{TaskId: tk.cfg.Id, Signal: "SIGTERM",
		Timeout: durationpb.New(10 * time.Second)})
	if err != nil {
		t.Fatalf("StopTask: %v", err)
	}
	r := wait(t, p, tk.cfg.Id)
	if r.Result.Signal != int32(syscall.SIGTERM) {
		t.Fatalf("WaitTask after StopTask(SIGTERM) = %v", r)
	}
	destroy(t, p, tk.cfg.Id)
}

var childPid = regexp.MustCompile(`child (\d+)`)

// A task that ignores SIGTERM and leaves a setsid'd grandchild that ignores it too: StopTask's timeout ends in
// SIGKILL of the whole tree.
func TestStopKillsATermIgnoringTree(t *testing.T) {
	p, ts := configured(t)
	alloc := t.TempDir()
	script := `trap '' TERM; setsid sh -c 'trap "" TERM; echo child $$; exec sleep 1000' & echo ready; while true; do sleep 0.05; done`
	tk := newTask(t, alloc, id(), "stubborn", sh(t, ts, script, nil))
	started(t, p, tk.cfg)
	out := tk.stdout.await(t, "ready")
	out = tk.stdout.await(t, "child ")
	m := childPid.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no child pid in %q", out)
	}
	child, _ := strconv.Atoi(m[1])
	began := time.Now()
	if _, err := p.driver.StopTask(ctx(t), &driverpb.StopTaskRequest{TaskId: tk.cfg.Id, Signal: "SIGTERM",
		Timeout: durationpb.New(500 * time.Millisecond)}); err != nil {
		t.Fatalf("StopTask: %v", err)
	}
	r := wait(t, p, tk.cfg.Id)
	if r.Result.Signal != int32(syscall.SIGKILL) {
		t.Fatalf("WaitTask = %v, want SIGKILL", r)
	}
	if took := time.Since(began); took < 500*time.Millisecond {
		t.Fatalf("SIGKILL came after %v, before the 500ms timeout", took)
	}
	if !gone(child) {
		t.Fatalf("the setsid'd grandchild %d survived the tree kill", child)
	}
	destroy(t, p, tk.cfg.Id)
}

func TestStatsOfTheProcessTree(t *testing.T) {
	p, ts := configured(t)
	alloc := t.TempDir()
	tk := newTask(t, alloc, id(), "busy", sh(t, ts, `sleep 1000 & echo ready; while true; do :; done`, nil))
	started(t, p, tk.cfg)
	tk.stdout.await(t, "ready")
	stream, err := p.driver.TaskStats(ctx(t), &driverpb.TaskStatsRequest{TaskId: tk.cfg.Id,
		CollectionInterval: durationpb.New(200 * time.Millisecond)})
	if err != nil {
		t.Fatalf("TaskStats: %v", err)
	}
	var last *driverpb.TaskStatsResponse
	for i := 0; i < 3; i++ {
		if last, err = stream.Recv(); err != nil {
			t.Fatalf("TaskStats recv: %v", err)
		}
	}
	agg := last.Stats.AggResourceUsage
	if agg.Memory.Rss == 0 || agg.Cpu.Percent <= 0 || len(last.Stats.ResourceUsageByPid) < 2 {
		t.Fatalf("stats = %v", last)
	}
	if _, err := p.driver.StopTask(ctx(t), &driverpb.StopTaskRequest{TaskId: tk.cfg.Id, Signal: "SIGKILL",
		Timeout: durationpb.New(time.Second)}); err != nil {
		t.Fatalf("StopTask: %v", err)
	}
	wait(t, p, tk.cfg.Id)
	destroy(t, p, tk.cfg.Id)
}

func TestMaxRuntime(t *testing.T) {
	p, ts := configured(t)
	events, err := p.driver.TaskEvents(ctx(t), &driverpb.TaskEventsRequest{})
	if err != nil {
		t.Fatalf("TaskEvents: %v", err)
	}
	alloc := t.TempDir()
	allocID := id()
	tk := newTask(t, alloc, allocID, "capped", sh(t, ts, `trap '' TERM; echo ready; while true; do sleep 0.05; done`,
		map[string]interface{}{"max_runtime": "1s", "max_runtime_grace": "300ms"}))
	began := time.Now()
	started(t, p, tk.cfg)
	ev, err := events.Recv()
	if err != nil {
		t.Fatalf("TaskEvents recv: %v", err)
	}
	if ev.TaskId != tk.cfg.Id || !strings.Contains(ev.Message, "Max Runtime Exceeded") ||
		ev.Annotations["limit"] != "1s" || ev.Annotations["signal"] != "SIGTERM" {
		t.Fatalf("event = %v", ev)
	}
	r := wait(t, p, tk.cfg.Id)
	if r.Result.Signal != int32(syscall.SIGKILL) || !strings.Contains(r.Err, "Max Runtime Exceeded") {
		t.Fatalf("WaitTask = %v", r)
	}
	if took := time.Since(began); took < 1300*time.Millisecond {
		t.Fatalf("killed after %v: before limit + grace", took)
	}
	destroy(t, p, tk.cfg.Id)
	// Nomad's restart of the task: refused for good.
	again := start(t, p, tk.again())
	if again.Result != driverpb.StartTaskResponse_FATAL || !strings.Contains(again.DriverErrorMsg, "Max Runtime Exceeded") {
		t.Fatalf("restart after max_runtime = %v", again)
	}
}

// kill -9 of the plugin: the tasks live on under their shims; a new plugin recovers them from the handles Nomad
// kept, reports the true exit code, and keeps a max_runtime deadline from the original start.
func TestKillPluginAndRecover(t *testing.T) {
	p, ts := configured(t)
	alloc := t.TempDir()
	allocID := id()
	flag := filepath.Join(alloc, "go")
	a := newTask(t, alloc, allocID, "survivor", sh(t, ts,
		`echo ready; while [ ! -f `+flag+` ]; do sleep 0.02; done; echo finishing; exit 7`, nil))
	b := newTask(t, alloc, allocID, "capped", sh(t, ts, `echo ready; exec sleep 1000`,
		map[string]interface{}{"max_runtime": "3s"}))
	ha := started(t, p, a.cfg)
	hb := started(t, p, b.cfg)
	began := time.Now()
	a.stdout.await(t, "ready")
	b.stdout.await(t, "ready")

	pid := p.client.ReattachConfig().Pid
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill -9 plugin: %v", err)
	}
	if !gone(pid) {
		t.Fatal("plugin survived kill -9")
	}
	p.client.Kill()

	q, _ := configured(t)
	for _, r := range []struct {
		id string
		h  *driverpb.TaskHandle
	}{{a.cfg.Id, ha}, {b.cfg.Id, hb}} {
		if _, err := q.driver.RecoverTask(ctx(t), &driverpb.RecoverTaskRequest{TaskId: r.id, Handle: r.h}); err != nil {
			t.Fatalf("RecoverTask: %v", err)
		}
	}
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ra := wait(t, q, a.cfg.Id)
	if ra.Result.ExitCode != 7 || ra.Err != "" {
		t.Fatalf("recovered WaitTask = %v", ra)
	}
	a.stdout.await(t, "finishing")
	rb := wait(t, q, b.cfg.Id)
	if !strings.Contains(rb.Err, "Max Runtime Exceeded") || rb.Result.Signal != int32(syscall.SIGTERM) {
		t.Fatalf("recovered capped WaitTask = %v", rb)
	}
	if took := time.Since(began); took < 3*time.Second {
		t.Fatalf("max_runtime fired after %v", took)
	}
	destroy(t, q, a.cfg.Id)
	destroy(t, q, b.cfg.Id)
	// A handle that is not Drover's is refused, not a crash.
	bad := &driverpb.TaskHandle{Config: a.cfg, DriverState: []byte("{}")}
	if _, err := q.driver.RecoverTask(ctx(t), &driverpb.RecoverTaskRequest{TaskId: "x", Handle: bad}); err == nil {
		t.Fatal("RecoverTask with a foreign driver_state succeeded")
	}
}
