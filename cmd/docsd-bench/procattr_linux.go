package main

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal makes the kernel kill the child if the benchmark dies, so no server
// outlives an interrupted run.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
