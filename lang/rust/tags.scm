; Rust's items, started from tree-sitter-rust's queries/tags.scm. The
; query runs from each item (rust.go's QueryRoots), so it never walks a
; function's code. defs.go says what a match alone cannot: the functions
; a generator macro's invocation declares (Defs), and the items'
; signatures, visibility, docs and test flags (Symbol); rust.go's walk
; (Finish) places the items where it meets them (an impl's after its
; container's, hanging from their type) and does the code.

(function_item name: (_) @name body: (_)? @body) @definition.function
(function_signature_item name: (_) @name) @definition.function
(macro_definition name: (_) @name) @definition.function

(struct_item name: (_) @name body: (_)? @body) @definition.class
(union_item name: (_) @name body: (_)? @body) @definition.class
(enum_item name: (_) @name body: (_)? @body) @definition.class
(trait_item name: (_) @name body: (_)? @body) @definition.interface
; an impl's or a trait's associated type is no alias (Defs)
(type_item name: (_) @name) @definition.type

; mod x; is an import of x's file
(mod_item name: (_) @name body: (_) @body) @definition.module

(const_item name: (_) @name value: (_)? @body) @definition.variable
(static_item name: (_) @name value: (_)? @body) @definition.variable

; an impl is no symbol: defs orders it among the items and finds the type
; its items hang from
(impl_item type: (_)) @_impl
