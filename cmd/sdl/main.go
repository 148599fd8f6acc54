// Command sdl indexes a repository into one SQLite file and answers
// questions about its code from the terminal and over MCP.
package main

import "os"

func main() { os.Exit(run(interruptible(), os.Args, os.Stdin, os.Stdout, os.Stderr)) }
