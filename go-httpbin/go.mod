// go-httpbin (github.com/mccutchen/go-httpbin), a service nobody here wrote, as a class's
// workload in the bring-your-service e2e test (docs/bring-your-service.md). Only the module
// pin lives here; the binary is its own cmd/go-httpbin.
module dev.isolato/go-httpbin

go 1.26.0

require github.com/mccutchen/go-httpbin/v2 v2.26.0 // indirect
