#!/usr/bin/env bash
# Generates the Go stubs of Drover's own .proto files (src/main/proto) into ./pb, with the protoc the Maven build
# fetched and protoc-gen-go / protoc-gen-go-grpc built from the versions go.mod pins. Idempotent.
#   gen.sh PROTOC PROTO_ROOT INCLUDE_DIR
set -euo pipefail
protoc="$1"; root="$2"; include="$3"
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
mkdir -p bin pb
go build -o bin/protoc-gen-go google.golang.org/protobuf/cmd/protoc-gen-go
go build -o bin/protoc-gen-go-grpc google.golang.org/grpc/cmd/protoc-gen-go-grpc
mod=drover.io/nomadclienttest/pb
m=""
for f in hclspec attribute base driver; do
  m="$m,Mdrover/nomad/$f.proto=$mod/$f"
done
m="${m#,}"
"$protoc" -I "$root" -I "$include" \
  --plugin=protoc-gen-go="$here/bin/protoc-gen-go" --plugin=protoc-gen-go-grpc="$here/bin/protoc-gen-go-grpc" \
  --go_out=pb --go_opt=paths=import --go_opt=module=$mod --go_opt="$m" \
  --go-grpc_out=pb --go-grpc_opt=module=$mod --go-grpc_opt="$m" \
  drover/nomad/hclspec.proto drover/nomad/attribute.proto drover/nomad/base.proto drover/nomad/driver.proto
