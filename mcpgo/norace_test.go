//go:build !race

package mcpgocoerce

const raceEnabled = false
