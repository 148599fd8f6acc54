//go:build !unix

package serve

import "os"

func inodeOf(fi os.FileInfo) uint64 { return uint64(fi.ModTime().UnixNano()) }
