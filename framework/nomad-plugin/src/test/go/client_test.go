// Package nomadclienttest drives Drover's Nomad task driver plugin the way a Nomad client does: go-plugin's
// client launches the plugin executable with Nomad's handshake config and gRPC only, dispenses "base" and
// "driver", and calls them with the stubs generated from Drover's own .proto files.
package nomadclienttest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	basepb "drover.io/nomadclienttest/pb/base"
	driverpb "drover.io/nomadclienttest/pb/driver"
)

// Nomad's handshake (plugins/base/plugin.go): protocol 2 and the magic cookie.
var handshake = plugin.HandshakeConfig{
	ProtocolVersion:  2,
	MagicCookieKey:   "NOMAD_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "e4327c2e01eabfd75a8a67adb114fb34a757d57eee7728d857a8cec6e91a7255",
}

// grpcPlugin hands the connection to the caller, as Nomad's base and driver plugin types do.
type grpcPlugin struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error { return fmt.Errorf("client only") }
func (grpcPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return c, nil
}

// launched is one plugin process and its two clients.
type launched struct {
	client *plugin.Client
	base   basepb.BasePluginClient
	driver driverpb.DriverClient
}

func launch(t *testing.T) *launched {
	t.Helper()
	exe := os.Getenv("DROVER_NOMAD_PLUGIN")
	if exe == "" {
		t.Fatal("DROVER_NOMAD_PLUGIN (the plugin executable) is not set")
	}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  handshake,
		Plugins:          map[string]plugin.Plugin{"base": grpcPlugin{}, "driver": grpcPlugin{}},
		Cmd:              exec.Command(exe),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     60 * time.Second,
		Logger:           hclog.New(&hclog.LoggerOptions{Name: "plugin", Output: os.Stderr, Level: hclog.Info}),
	})
	rpc, err := client.Client()
	if err != nil {
		client.Kill()
		t.Fatalf("handshake: %v", err)
	}
	b, err := rpc.Dispense("base")
	if err != nil {
		t.Fatalf("dispense base: %v", err)
	}
	d, err := rpc.Dispense("driver")
	if err != nil {
		t.Fatalf("dispense driver: %v", err)
	}
	if err := rpc.Ping(); err != nil {
		t.Fatalf("health ping: %v", err)
	}
	return &launched{client: client, base: basepb.NewBasePluginClient(b.(*grpc.ClientConn)),
		driver: driverpb.NewDriverClient(d.(*grpc.ClientConn))}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

// configure sends the plugin block {enabled = true}, encoded from the plugin's own schema.
func configure(t *testing.T, p *launched) {
	t.Helper()
	schema, err := p.base.ConfigSchema(ctx(t), &basepb.ConfigSchemaRequest{})
	if err != nil {
		t.Fatalf("ConfigSchema: %v", err)
	}
	raw := encode(t, schema.Spec, map[string]interface{}{"enabled": true})
	if _, err := p.base.SetConfig(ctx(t), &basepb.SetConfigRequest{MsgpackConfig: raw, PluginApiVersion: "0.1.0"}); err != nil {
		t.Fatalf("SetConfig: %v", err)
	}
}

func TestHandshakeAndSchemas(t *testing.T) {
	p := launch(t)
	defer p.client.Kill()

	info, err := p.base.PluginInfo(ctx(t), &basepb.PluginInfoRequest{})
	if err != nil {
		t.Fatalf("PluginInfo: %v", err)
	}
	if info.Type != basepb.PluginType_DRIVER || info.Name != "drover-raw_exec" ||
		len(info.PluginApiVersions) != 1 || info.PluginApiVersions[0] != "0.1.0" {
		t.Fatalf("PluginInfo = %v", info)
	}
	schema, err := p.base.ConfigSchema(ctx(t), &basepb.ConfigSchemaRequest{})
	if err != nil {
		t.Fatalf("ConfigSchema: %v", err)
	}
	enabled := schema.Spec.GetObject().GetAttributes()["enabled"]
	if a := enabled.GetDefault().GetPrimary().GetAttr(); a == nil || a.Type != "bool" ||
		enabled.GetDefault().GetDefault().GetLiteral().GetValue() != "false" {
		t.Fatalf("plugin schema has no bool enabled: %v", schema.Spec)
	}

	// Before SetConfig the driver is undetected and refuses tasks.
	fp := fingerprint(t, p)
	if fp.Health != driverpb.FingerprintResponse_UNDETECTED {
		t.Fatalf("fingerprint before SetConfig = %v", fp)
	}

	// A block with a key the schema does not have is refused, naming the key; the plugin lives on.
	bad := rawObject(map[string]interface{}{"enabled": true, "enable": true})
	_, err = p.base.SetConfig(ctx(t), &basepb.SetConfigRequest{MsgpackConfig: bad})
	if err == nil || !strings.Contains(err.Error(), "enable: unknown key") {
		t.Fatalf("SetConfig with an unknown key: %v", err)
	}
	configure(t, p)

	ts, err := p.driver.TaskConfigSchema(ctx(t), &driverpb.TaskConfigSchemaRequest{})
	if err != nil {
		t.Fatalf("TaskConfigSchema: %v", err)
	}
	attrs := ts.Spec.GetObject().GetAttributes()
	if c := attrs["command"].GetAttr(); c == nil || !c.Required || c.Type != "string" {
		t.Fatalf("task schema command = %v", attrs["command"])
	}
	for _, k := range []string{"args", "work_dir", "max_runtime", "max_runtime_signal", "max_runtime_grace"} {
		if attrs[k] == nil {
			t.Fatalf("task schema lacks %s: %v", k, ts.Spec)
		}
	}
	caps, err := p.driver.Capabilities(ctx(t), &driverpb.CapabilitiesRequest{})
	if err != nil || !caps.Capabilities.SendSignals || caps.Capabilities.Exec {
		t.Fatalf("Capabilities = %v, %v", caps, err)
	}
	fp = fingerprint(t, p)
	if fp.Health != driverpb.FingerprintResponse_HEALTHY {
		t.Fatalf("fingerprint after SetConfig = %v", fp)
	}
}

func fingerprint(t *testing.T, p *launched) *driverpb.FingerprintResponse {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stream, err := p.driver.Fingerprint(c, &driverpb.FingerprintRequest{})
	if err != nil {
		t.Fatalf("Fingerprint: %v", err)
	}
	fp, err := stream.Recv()
	if err != nil {
		t.Fatalf("Fingerprint recv: %v", err)
	}
	return fp
}
