// Package isolation stands in for PicoClaw's isolation package when the corpus
// harness builds PicoClaw's hook host. It starts the command as PicoClaw does
// with isolation disabled (its default): a plain cmd.Start.
package isolation

import "os/exec"

// Start has the signature of PicoClaw's isolation.Start.
func Start(cmd *exec.Cmd) error {
	return cmd.Start()
}
