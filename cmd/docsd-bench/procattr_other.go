//go:build !linux

package main

import "os/exec"

// setParentDeathSignal has no portable equivalent outside Linux; the benchmark stops its
// servers itself on every normal exit and on interrupt.
func setParentDeathSignal(cmd *exec.Cmd) {}
