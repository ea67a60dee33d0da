//go:build race

package mcpgocoerce

// raceEnabled: the race detector makes sync.Pool drop a quarter of what is
// put back, so allocation counts that rest on pooled buffers (the core's
// encoder) vary from run to run and are not compared.
const raceEnabled = true
