// Package config stands in for PicoClaw's config package when the corpus harness
// builds PicoClaw's hook host. Only the hooks section exists; its types
// (HooksConfig and friends) are extracted from upstream config.go at build time.
package config

// Config holds the one section of PicoClaw's config that the hook host reads.
type Config struct {
	Hooks HooksConfig
}
