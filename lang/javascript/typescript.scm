; TypeScript's and TSX's declared types and namespaces, started from
; tree-sitter-typescript's queries/tags.scm (JavaScript's grammar has none
; of these kinds). The query says which nodes define what, with their
; names and bodies; the walk (javascript.go) places each where it meets
; it, because what a symbol's parent is, whether it is exported and what
; its doc is depend on the statements around it: a declaration may sit in
; a function whose locals the walk types, under export, declare or both.
;
; The query runs from its roots (QueryRoots: these declarations), so it
; never walks code.

(interface_declaration name: (_) @name body: (_)? @body) @definition.interface
(type_alias_declaration name: (_) @name value: (_)? @body) @definition.type
(enum_declaration name: (_) @name body: (_)? @body) @definition.type
(internal_module name: (_) @name body: (_)? @body) @definition.module
(module name: (_) @name body: (_)? @body) @definition.module

; the methods of an interface, and of the object type a type alias is
(interface_declaration body: (interface_body (method_signature name: (_) @name) @definition.method))
(type_alias_declaration value: (object_type (method_signature name: (_) @name) @definition.method))
