// Package nomadapi drives a real Drover agent with Nomad's own Go api client (github.com/hashicorp/nomad/api,
// MPL-2.0). NomadGoClientTest (framework/agent) starts the agent on a loopback port and runs this with
// NOMAD_ADDR set; run by hand: NOMAD_ADDR=http://127.0.0.1:4747 go test -count=1 ./...
package nomadapi

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"
)

func client(t *testing.T) *api.Client {
	t.Helper()
	addr := os.Getenv("NOMAD_ADDR")
	if addr == "" {
		t.Fatal("NOMAD_ADDR is not set: this test needs a running Drover agent (NomadGoClientTest starts one)")
	}
	cfg := api.DefaultConfig()
	cfg.Address = addr
	c, err := api.NewClient(cfg)
	if err != nil {
		t.Fatalf("api.NewClient: %v", err)
	}
	return c
}

func mockJob(id, runFor, out string) *api.Job {
	job := api.NewBatchJob(id, id, "global", 50)
	job.Datacenters = []string{"dc1"}
	tg := api.NewTaskGroup("g", 1)
	task := api.NewTask("web", "mock")
	task.Config = map[string]interface{}{"run_for": runFor, "stdout_string": out}
	tg.AddTask(task)
	job.AddTaskGroup(tg)
	return job
}

// TestClusterReads: what Nomad's CLI asks before anything else, on a node that is its own leader.
func TestClusterReads(t *testing.T) {
	c := client(t)
	leader, err := c.Status().Leader()
	if err != nil || leader == "" {
		t.Fatalf("Status().Leader() = %q, %v", leader, err)
	}
	peers, err := c.Status().Peers()
	if err != nil || len(peers) != 1 {
		t.Fatalf("Status().Peers() = %v, %v", peers, err)
	}
	regions, err := c.Regions().List()
	if err != nil || len(regions) != 1 || regions[0] != "global" {
		t.Fatalf("Regions().List() = %v, %v", regions, err)
	}
	self, err := c.Agent().Self()
	if err != nil || self.Member.Tags["region"] != "global" {
		t.Fatalf("Agent().Self() = %+v, %v", self, err)
	}
	nodes, qm, err := c.Nodes().List(nil)
	if err != nil || len(nodes) != 1 {
		t.Fatalf("Nodes().List() = %v, %v", nodes, err)
	}
	if qm.LastIndex == 0 || !qm.KnownLeader {
		t.Fatalf("query meta of /v1/nodes: %+v", qm)
	}
	node, _, err := c.Nodes().Info(nodes[0].ID, nil)
	if err != nil {
		t.Fatalf("Nodes().Info: %v", err)
	}
	if node.Attributes["kernel.name"] != "linux" || node.Attributes["driver.mock"] != "1" ||
		node.Attributes["cpu.arch"] == "" || node.Datacenter != "dc1" || node.HTTPAddr == "" {
		t.Fatalf("node %s: attributes %v, datacenter %q, http %q", node.ID, node.Attributes, node.Datacenter,
			node.HTTPAddr)
	}
}

// TestRegisterFollowLogsStop: register, follow with blocking queries, read allocations, events and logs, stop.
func TestRegisterFollowLogsStop(t *testing.T) {
	c := client(t)
	job := mockJob("go-api", "300ms", "hello from the mock driver\n")
	resp, _, err := c.Jobs().Register(job, nil)
	if err != nil {
		t.Fatalf("Jobs().Register: %v", err)
	}
	if resp.EvalID == "" || resp.JobModifyIndex == 0 {
		t.Fatalf("register response %+v", resp)
	}
	eval, _, err := c.Evaluations().Info(resp.EvalID, nil)
	if err != nil || eval.Status != "complete" || eval.JobID != "go-api" {
		t.Fatalf("Evaluations().Info(%s) = %+v, %v", resp.EvalID, eval, err)
	}

	// the same job again with EnforceIndex at a stale index: Nomad's check-and-set refuses it
	_, _, err = c.Jobs().EnforceRegister(job, resp.JobModifyIndex+1000, nil)
	if err == nil || !strings.Contains(err.Error(), "conflicting job modify index") {
		t.Fatalf("EnforceRegister at a wrong index: err = %v", err)
	}

	allocs, qm, err := c.Jobs().Allocations("go-api", false, nil)
	if err != nil || len(allocs) != 1 {
		t.Fatalf("Jobs().Allocations = %v, %v", allocs, err)
	}
	if allocs[0].NodeID == "" || allocs[0].Namespace != "default" || allocs[0].EvalID != resp.EvalID {
		t.Fatalf("alloc stub %+v", allocs[0])
	}

	// follow the allocation with blocking queries until it is complete
	id := allocs[0].ID
	index := qm.LastIndex
	var alloc *api.Allocation
	blocked := 0
	deadline := time.Now().Add(60 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("allocation %s not complete within 60 s: %+v", id, alloc)
		}
		start := time.Now()
		a, meta, err := c.Allocations().Info(id, &api.QueryOptions{WaitIndex: index, WaitTime: 10 * time.Second})
		if err != nil {
			t.Fatalf("Allocations().Info: %v", err)
		}
		if meta.LastIndex < index {
			t.Fatalf("index went back: %d after %d", meta.LastIndex, index)
		}
		if meta.LastIndex > index && time.Since(start) > 5*time.Millisecond {
			blocked++ // it waited for a change and came back with a newer index
		}
		index = meta.LastIndex
		alloc = a
		if a.ClientStatus == "complete" || a.ClientStatus == "failed" {
			break
		}
	}
	if alloc.ClientStatus != "complete" {
		t.Fatalf("allocation %s ended %s", id, alloc.ClientStatus)
	}
	if blocked == 0 {
		t.Fatalf("no blocking query waited for a change")
	}
	if alloc.Job == nil || *alloc.Job.ID != "go-api" || alloc.NodeName == "" || *alloc.Job.Version != 0 ||
		alloc.CreateIndex == 0 || alloc.ModifyIndex < alloc.CreateIndex {
		t.Fatalf("allocation fields: job %v node %q indexes %d/%d", alloc.Job, alloc.NodeName,
			alloc.CreateIndex, alloc.ModifyIndex)
	}
	var types []string
	for _, e := range alloc.TaskStates["web"].Events {
		types = append(types, e.Type)
	}
	joined := strings.Join(types, ",")
	for _, want := range []string{"Received", "Task Setup", "Started", "Terminated"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("events of web: %v, no %q", types, want)
		}
	}
	if alloc.TaskStates["web"].StartedAt.IsZero() || alloc.TaskStates["web"].FinishedAt.IsZero() {
		t.Fatalf("task state times: %+v", alloc.TaskStates["web"])
	}

	// the logs, framed as Nomad's client reads them
	cancel := make(chan struct{})
	defer close(cancel)
	frames, errs := c.AllocFS().Logs(alloc, false, "web", "stdout", "start", 0, cancel, nil)
	var out strings.Builder
	for done := false; !done; {
		select {
		case f, ok := <-frames:
			if !ok {
				done = true
				break
			}
			out.Write(f.Data)
		case err := <-errs:
			t.Fatalf("AllocFS().Logs: %v", err)
		case <-time.After(20 * time.Second):
			t.Fatalf("logs did not end; read %q", out.String())
		}
	}
	if out.String() != "hello from the mock driver\n" {
		t.Fatalf("stdout of web: %q", out.String())
	}

	stats, err := c.Allocations().Stats(alloc, nil)
	if err != nil || stats.Tasks["web"] == nil {
		t.Fatalf("Allocations().Stats: %+v, %v", stats, err)
	}
	summary, _, err := c.Jobs().Summary("go-api", nil)
	if err != nil || summary.Summary["g"].Complete != 1 {
		t.Fatalf("Jobs().Summary: %+v, %v", summary, err)
	}
	versions, _, _, err := c.Jobs().Versions("go-api", false, nil)
	if err != nil || len(versions) != 1 || *versions[0].Version != 0 {
		t.Fatalf("Jobs().Versions: %v, %v", versions, err)
	}
	evals, _, err := c.Jobs().Evaluations("go-api", nil)
	if err != nil || len(evals) != 1 || evals[0].ID != resp.EvalID {
		t.Fatalf("Jobs().Evaluations: %v, %v", evals, err)
	}
	info, _, err := c.Jobs().Info("go-api", nil)
	if err != nil || *info.Status != "dead" || *info.Type != "batch" || len(info.TaskGroups) != 1 {
		t.Fatalf("Jobs().Info: %+v, %v", info, err)
	}
	if _, _, err := c.Jobs().Deregister("go-api", false, nil); err != nil {
		t.Fatalf("Jobs().Deregister: %v", err)
	}
	info, _, err = c.Jobs().Info("go-api", nil)
	if err != nil || !*info.Stop {
		t.Fatalf("after Deregister: %+v, %v", info, err)
	}
}

// TestStopARunningJob: a long task, followed to running with blocking queries, stopped by Deregister.
func TestStopARunningJob(t *testing.T) {
	c := client(t)
	resp, _, err := c.Jobs().Register(mockJob("go-api-long", "1h", "x\n"), nil)
	if err != nil {
		t.Fatalf("Jobs().Register: %v", err)
	}
	allocs, _, err := c.Evaluations().Allocations(resp.EvalID, nil)
	if err != nil || len(allocs) != 1 {
		t.Fatalf("Evaluations().Allocations(%s) = %v, %v", resp.EvalID, allocs, err)
	}
	id := allocs[0].ID
	want := func(status string) *api.Allocation {
		var index uint64
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			a, meta, err := c.Allocations().Info(id, &api.QueryOptions{WaitIndex: index, WaitTime: 10 * time.Second})
			if err != nil {
				t.Fatalf("Allocations().Info: %v", err)
			}
			index = meta.LastIndex
			if a.ClientStatus == status {
				return a
			}
		}
		t.Fatalf("allocation %s never %s", id, status)
		return nil
	}
	want("running")
	if _, _, err := c.Jobs().Deregister("go-api-long", true, nil); err != nil {
		t.Fatalf("Jobs().Deregister(purge): %v", err)
	}
	a := want("complete")
	if a.DesiredStatus != "stop" {
		t.Fatalf("desired status after deregister: %s", a.DesiredStatus)
	}
	if _, _, err := c.Jobs().Info("go-api-long", nil); err == nil {
		t.Fatalf("a purged job is still readable")
	} else {
		var e api.UnexpectedResponseError
		if errors.As(err, &e) && e.StatusCode() != 404 {
			t.Fatalf("purged job: %v", err)
		}
	}
}

// TestConstraintsDecidedOnThisNode: a group whose constraint this node fails is not placed; the evaluation's
// FailedTGAllocs says why, as Nomad's CLI reads it.
func TestConstraintsDecidedOnThisNode(t *testing.T) {
	c := client(t)
	job := mockJob("go-api-picky", "10ms", "x\n")
	job.TaskGroups[0].Constraints = []*api.Constraint{api.NewConstraint("${attr.kernel.name}", "=", "windows")}
	here := api.NewTaskGroup("here", 1)
	here.Constraints = []*api.Constraint{api.NewConstraint("${attr.driver.mock}", "=", "1")}
	task := api.NewTask("web", "mock")
	task.Config = map[string]interface{}{"run_for": "10ms"}
	here.AddTask(task)
	job.AddTaskGroup(here)
	resp, _, err := c.Jobs().Register(job, nil)
	if err != nil {
		t.Fatalf("Jobs().Register: %v", err)
	}
	eval, _, err := c.Evaluations().Info(resp.EvalID, nil)
	if err != nil {
		t.Fatalf("Evaluations().Info: %v", err)
	}
	failed := eval.FailedTGAllocs["g"]
	if failed == nil || failed.ConstraintFiltered["${attr.kernel.name} = windows"] != 1 || failed.NodesFiltered != 1 {
		t.Fatalf("FailedTGAllocs: %+v", eval.FailedTGAllocs)
	}
	if _, ok := eval.FailedTGAllocs["here"]; ok {
		t.Fatalf("group here was placed, yet listed as failed: %+v", eval.FailedTGAllocs)
	}
	allocs, _, err := c.Jobs().Allocations("go-api-picky", false, nil)
	if err != nil || len(allocs) != 1 || allocs[0].TaskGroup != "here" {
		t.Fatalf("Jobs().Allocations = %v, %v", allocs, err)
	}
	if _, _, err := c.Jobs().Deregister("go-api-picky", true, nil); err != nil {
		t.Fatalf("Jobs().Deregister: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestRuntimeBlocksRoundTrip: meta, an artifact, a template and a dynamic port, as the Go client serializes them
// (every unset pointer null), are accepted and read back in Nomad's shape.
func TestRuntimeBlocksRoundTrip(t *testing.T) {
	c := client(t)
	job := mockJob("go-api-runtime", "10ms", "x\n")
	job.Meta = map[string]string{"owner": "ops"}
	tg := job.TaskGroups[0]
	tg.Meta = map[string]string{"tier": "front"}
	tg.Networks = []*api.NetworkResource{{Mode: "host", DynamicPorts: []api.Port{{Label: "http"}}}}
	task := tg.Tasks[0]
	task.Meta = map[string]string{"version": "1.2"}
	task.Artifacts = []*api.TaskArtifact{{GetterSource: ptr("/etc/hostname"), RelativeDest: ptr("local/")}}
	task.Templates = []*api.Template{{EmbeddedTmpl: ptr("port={{ env \"NOMAD_PORT_http\" }}"),
		DestPath: ptr("local/app.conf"), ChangeMode: ptr("signal"), ChangeSignal: ptr("SIGHUP"),
		Splay: ptr(3 * time.Second), Perms: ptr("0600")}}
	if _, _, err := c.Jobs().Register(job, nil); err != nil {
		t.Fatalf("Jobs().Register: %v", err)
	}
	back, _, err := c.Jobs().Info("go-api-runtime", nil)
	if err != nil {
		t.Fatalf("Jobs().Info: %v", err)
	}
	g := back.TaskGroups[0]
	bt := g.Tasks[0]
	if back.Meta["owner"] != "ops" || g.Meta["tier"] != "front" || bt.Meta["version"] != "1.2" {
		t.Fatalf("meta: job %v group %v task %v", back.Meta, g.Meta, bt.Meta)
	}
	if len(g.Networks) != 1 || len(g.Networks[0].DynamicPorts) != 1 || g.Networks[0].DynamicPorts[0].Label != "http" {
		t.Fatalf("Networks: %+v", g.Networks)
	}
	if len(bt.Artifacts) != 1 || *bt.Artifacts[0].GetterSource != "/etc/hostname" {
		t.Fatalf("Artifacts: %+v", bt.Artifacts)
	}
	if len(bt.Templates) != 1 {
		t.Fatalf("Templates: %+v", bt.Templates)
	}
	tpl := bt.Templates[0]
	if *tpl.EmbeddedTmpl != "port={{ env \"NOMAD_PORT_http\" }}" || *tpl.DestPath != "local/app.conf" ||
		*tpl.ChangeMode != "signal" || *tpl.ChangeSignal != "SIGHUP" || *tpl.Splay != 3*time.Second ||
		*tpl.Perms != "0600" {
		t.Fatalf("template read back: %+v", tpl)
	}
	if _, _, err := c.Jobs().Deregister("go-api-runtime", true, nil); err != nil {
		t.Fatalf("Jobs().Deregister: %v", err)
	}
}

// TestDispatchAndPeriodicForce: a parameterized job dispatched with meta and a payload, and a periodic job's
// child launched now, through Nomad's own Jobs().Dispatch and Jobs().PeriodicForce.
func TestDispatchAndPeriodicForce(t *testing.T) {
	c := client(t)
	job := mockJob("go-api-render", "10ms", "x\n")
	job.ParameterizedJob = &api.ParameterizedJobConfig{Payload: "required", MetaRequired: []string{"who"}}
	job.TaskGroups[0].Tasks[0].DispatchPayload = &api.DispatchPayloadConfig{File: "in.txt"}
	if _, _, err := c.Jobs().Register(job, nil); err != nil {
		t.Fatalf("Jobs().Register(parameterized): %v", err)
	}
	resp, _, err := c.Jobs().Dispatch("go-api-render", map[string]string{"who": "go"}, []byte("payload"), "", nil)
	if err != nil {
		t.Fatalf("Jobs().Dispatch: %v", err)
	}
	if !strings.HasPrefix(resp.DispatchedJobID, "go-api-render/dispatch-") || resp.EvalID == "" ||
		resp.JobCreateIndex == 0 {
		t.Fatalf("Jobs().Dispatch = %+v", resp)
	}
	child, _, err := c.Jobs().Info(resp.DispatchedJobID, nil)
	if err != nil || child.ParentID == nil || *child.ParentID != "go-api-render" {
		t.Fatalf("Jobs().Info(%s) = %+v, %v", resp.DispatchedJobID, child, err)
	}
	if _, _, err := c.Jobs().Dispatch("go-api-render", nil, []byte("payload"), "", nil); err == nil ||
		!strings.Contains(err.Error(), "Dispatch did not provide required meta keys: [who]") {
		t.Fatalf("a dispatch without its required meta: %v", err)
	}

	periodic := mockJob("go-api-tick", "10ms", "x\n")
	spec, overlap := "@yearly", true
	periodic.Periodic = &api.PeriodicConfig{Spec: &spec, ProhibitOverlap: &overlap}
	if _, _, err := c.Jobs().Register(periodic, nil); err != nil {
		t.Fatalf("Jobs().Register(periodic): %v", err)
	}
	parent, _, err := c.Jobs().Info("go-api-tick", nil)
	if err != nil || parent.Periodic == nil || *parent.Periodic.Spec != "@yearly" || !*parent.Periodic.Enabled {
		t.Fatalf("Jobs().Info(go-api-tick).Periodic = %+v, %v", parent.Periodic, err)
	}
	evalID, _, err := c.Jobs().PeriodicForce("go-api-tick", nil)
	if err != nil || evalID == "" {
		t.Fatalf("Jobs().PeriodicForce = %q, %v", evalID, err)
	}
	children, _, err := c.Jobs().PrefixList("go-api-tick/periodic-")
	if err != nil || len(children) != 1 || children[0].ParentID != "go-api-tick" {
		t.Fatalf("the forced child: %+v, %v", children, err)
	}
	if _, _, err := c.Jobs().PeriodicForce("go-api-render", nil); err == nil ||
		!strings.Contains(err.Error(), "can't force launch non-periodic job") {
		t.Fatalf("forcing a job that is not periodic: %v", err)
	}
	for _, id := range []string{"go-api-render", "go-api-tick"} {
		if _, _, err := c.Jobs().Deregister(id, true, nil); err != nil {
			t.Fatalf("Jobs().Deregister(%s): %v", id, err)
		}
	}
}

// TestNativeServiceDiscovery: a running job's provider = "nomad" services, read with Nomad's own Services().List()
// and .Get(name) (blocking queries until registered and until removed), one deleted with .Delete.
func TestNativeServiceDiscovery(t *testing.T) {
	c := client(t)
	job := mockJob("go-api-svc", "1h", "x\n")
	tg := job.TaskGroups[0]
	tg.Networks = []*api.NetworkResource{{Mode: "host", DynamicPorts: []api.Port{{Label: "http"}}}}
	tg.Services = []*api.Service{{Name: "go-web", PortLabel: "http", Provider: "nomad", Tags: []string{"b", "a"}}}
	tg.Tasks[0].Services = []*api.Service{{Name: "go-web-task", PortLabel: "http", Provider: "nomad"}}
	if _, _, err := c.Jobs().Register(job, nil); err != nil {
		t.Fatalf("Jobs().Register: %v", err)
	}
	// follow the service until it is registered (or gone), with blocking queries as consul-template does
	follow := func(name string, want int) []*api.ServiceRegistration {
		var index uint64
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			regs, meta, err := c.Services().Get(name, &api.QueryOptions{WaitIndex: index, WaitTime: 10 * time.Second})
			if err != nil {
				t.Fatalf("Services().Get(%s): %v", name, err)
			}
			index = meta.LastIndex
			if len(regs) == want {
				return regs
			}
		}
		t.Fatalf("service %s never had %d registration(s)", name, want)
		return nil
	}
	regs := follow("go-web", 1)
	r := regs[0]
	allocs, _, err := c.Jobs().Allocations("go-api-svc", false, nil)
	if err != nil || len(allocs) != 1 {
		t.Fatalf("Jobs().Allocations = %v, %v", allocs, err)
	}
	alloc, _, err := c.Allocations().Info(allocs[0].ID, nil)
	if err != nil {
		t.Fatalf("Allocations().Info: %v", err)
	}
	port := 0
	for _, p := range alloc.AllocatedResources.Shared.Ports {
		if p.Label == "http" {
			port = p.Value
		}
	}
	self, err := c.Agent().Self()
	if err != nil {
		t.Fatalf("Agent().Self: %v", err)
	}
	nodeID, _ := self.Stats["client"]["node_id"]
	if r.ID != "_nomad-task-"+alloc.ID+"-group-g-go-web-http" || r.ServiceName != "go-web" || r.Namespace != "default" ||
		r.JobID != "go-api-svc" || r.AllocID != alloc.ID || r.NodeID != nodeID || r.Datacenter != "dc1" ||
		r.Address != "127.0.0.1" || r.Port != port || port == 0 || strings.Join(r.Tags, ",") != "b,a" ||
		r.CreateIndex == 0 || r.ModifyIndex < r.CreateIndex {
		t.Fatalf("Services().Get(go-web) = %+v (allocation %s, port %d, node %s)", r, alloc.ID, port, nodeID)
	}
	follow("go-web-task", 1)
	list, _, err := c.Services().List(nil)
	if err != nil || len(list) != 1 || list[0].Namespace != "default" || len(list[0].Services) != 2 ||
		list[0].Services[0].ServiceName != "go-web" || strings.Join(list[0].Services[0].Tags, ",") != "a,b" ||
		list[0].Services[1].ServiceName != "go-web-task" {
		t.Fatalf("Services().List() = %+v, %v", list, err)
	}
	if _, err := c.Services().Delete("go-web-task", "_nomad-task-"+alloc.ID+"-web-go-web-task-http", nil); err != nil {
		t.Fatalf("Services().Delete: %v", err)
	}
	follow("go-web-task", 0)
	if _, err := c.Services().Delete("go-web-task", "no-such-id", nil); err == nil {
		t.Fatalf("deleting a registration that does not exist succeeded")
	}
	if _, _, err := c.Jobs().Deregister("go-api-svc", true, nil); err != nil {
		t.Fatalf("Jobs().Deregister: %v", err)
	}
	follow("go-web", 0)
}

// TestVariables: Nomad variables written, read, listed, checked-and-set and deleted with Nomad's own
// Variables() client.
func TestVariables(t *testing.T) {
	c := client(t)
	v, _, err := c.Variables().Create(&api.Variable{Path: "go/app/db", Items: api.VariableItems{"user": "admin"}}, nil)
	if err != nil {
		t.Fatalf("Variables().Create: %v", err)
	}
	if v.CreateIndex == 0 || v.ModifyIndex != v.CreateIndex || v.Namespace != "default" {
		t.Fatalf("created: %+v", v)
	}
	got, _, err := c.Variables().Read("go/app/db", nil)
	if err != nil || got == nil || got.Items["user"] != "admin" {
		t.Fatalf("Variables().Read: %+v %v", got, err)
	}
	if missing, _, err := c.Variables().Peek("go/none", nil); err != nil || missing != nil {
		t.Fatalf("Variables().Peek of an absent variable: %+v %v", missing, err)
	}
	list, _, err := c.Variables().PrefixList("go/", nil)
	if err != nil || len(list) != 1 || list[0].Path != "go/app/db" {
		t.Fatalf("Variables().PrefixList: %+v %v", list, err)
	}
	stale := *got
	got.Items["user"] = "root"
	if _, _, err := c.Variables().CheckedUpdate(got, nil); err != nil {
		t.Fatalf("Variables().CheckedUpdate: %v", err)
	}
	_, _, err = c.Variables().CheckedUpdate(&stale, nil)
	var conflict api.ErrCASConflict
	if !errors.As(err, &conflict) || conflict.Conflict.Items["user"] != "root" {
		t.Fatalf("a stale CheckedUpdate: want ErrCASConflict with the current variable, got %v", err)
	}
	if _, err := c.Variables().Delete("go/app/db", nil); err != nil {
		t.Fatalf("Variables().Delete: %v", err)
	}
	if gone, _, err := c.Variables().Read("go/app/db", nil); err == nil || gone != nil {
		t.Fatalf("Variables().Read after Delete: %+v %v", gone, err)
	}
}
