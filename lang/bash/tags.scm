; Bash's definitions, references and imports. tree-sitter-bash ships no
; tags.scm (only highlights.scm), so this one is written from its
; grammar. bash.go's hooks say what a match alone cannot: which variable
; assignments are symbols (the first at a script's top level, Defs), the
; command a wrapper runs and whether a redirection writes a file (Ref),
; the script a source names (Import), guards and the file's doc (Finish).

; name() { ... } and function name { ... }
(function_definition
  name: (_) @name
  body: (_)? @body) @definition.function

; NAME=value, export NAME=value, declare -r NAME=value; a declaration's
; assignment is given its declaration's range by Defs
(variable_assignment
  name: (variable_name) @name
  value: (_)? @body) @definition.variable

; a command calls its name
(command
  name: (command_name . (word) @name)) @reference.call

; the command a wrapper runs (sudo -u x kubectl ...): Ref keeps the
; argument past the wrapper's options
(command
  name: (command_name . (word) @_wrapper)
  argument: [(word) (string) (raw_string)] @name @reference.call
  (#any-of? @_wrapper "sudo" "exec" "env" "nohup" "time" "command" "builtin" "xargs" "timeout" "nice"
    "ionice" "stdbuf" "doas" "chroot" "watch" "flock" "setsid" "unbuffer"))

; > file and >> file write it; Ref drops /dev/null and descriptors and
; checks the field: with redirect: here tree-sitter matches only the
; first of a statement's redirections (cat < a > b)
(redirected_statement
  (file_redirect) @name @reference.call)

; source file and . file
(command
  name: (command_name . (word) @_source)
  (#any-of? @_source "source" ".")) @import
