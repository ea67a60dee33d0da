package genkitcoerce

// Compiles returns how many input schemas the process has compiled, so that
// tests can count the work the cache saves.
func Compiles() int64 { return compiles.Load() }
