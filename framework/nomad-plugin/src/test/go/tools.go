//go:build tools

// The code generators the stubs are made with, pinned by go.mod: gen.sh builds them from the module cache.
package tools

import (
	_ "google.golang.org/grpc/cmd/protoc-gen-go-grpc"
	_ "google.golang.org/protobuf/cmd/protoc-gen-go"
)
