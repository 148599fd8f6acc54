; Go's definitions and imports, started from tree-sitter-go's
; queries/tags.scm. golang.go's hooks say what a match alone cannot: the
; range of a declaration that holds one spec (Defs), signatures, a
; method's receiver, a struct's fields and embedded types (Symbol), an
; import's path and name (Import), and the walk of the code for calls,
; the types of locals, guards and panics (Finish).
;
; The query runs from the declarations at the top of the file, and the
; import specs in them (golang.go's QueryRoots and QueryRoot: above them
; only the file and code the parser gave up on, ERROR), so it never
; walks a function's body.

(function_declaration name: (_) @name body: (_)? @body) @definition.function
(method_declaration name: (_) @name body: (_)? @body) @definition.function

; a type's symbol spans its declaration when that holds it alone (Defs)
(type_declaration [(type_spec name: (_) @name type: (_)? @body) (type_alias name: (_) @name type: (_)? @body)] @definition.type)
(type_declaration [
  (type_spec name: (_) type: (interface_type (method_elem name: (_) @name) @definition.method))
  (type_alias name: (_) type: (interface_type (method_elem name: (_) @name) @definition.method))])

; a declaration's variables: Defs makes one of each name of its specs
(var_declaration) @definition.variable
(const_declaration) @definition.variable

(import_spec) @import
