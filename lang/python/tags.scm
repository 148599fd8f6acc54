; Python's definitions and imports, started from tree-sitter-python's
; queries/tags.scm. The query runs from its roots (QueryRoots), each
; pattern starting at one, so the code of a function body is never
; walked; QueryRoot leaves out the assignments in functions (locals are
; no symbols). tags.go's hooks say what a match alone cannot: a decorated
; definition's range, the names an assignment binds and which of them are
; new (Defs), signatures, decorators, bases and docstrings (Symbol), an
; import's parts (Import); python.go's Finish walks the code for the types
; of locals and attributes, calls, guards, raises and __all__.

(function_definition name: (_) @name body: (_)? @body) @definition.function
(class_definition name: (_) @name body: (_)? @body) @definition.class

; x = v, x: T = v, a, b = v, a = b = v: Defs names each target
(assignment) @definition.variable

; type Vector = list[float], type Pair[T] = tuple[T, T]
(type_alias_statement
  left: (type [(identifier) @name (generic_type (identifier) @name)])) @definition.type

(import_statement) @import
(import_from_statement) @import
