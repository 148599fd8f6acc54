; Python's definitions and imports, started from tree-sitter-python's
; queries/tags.scm. python.go's hooks say what a match alone cannot: which
; of its roots the walk of the code reaches (QueryRoot: not a parameter's
; annotation, nor an assignment in a function), a decorated definition's
; range, the names an assignment binds and which of them are new (Defs),
; signatures, decorators, bases and docstrings (Symbol), an import's parts
; (Import); its Finish walks the code for the types of locals and
; attributes, calls, guards, raises and __all__.
;
; The query runs from its roots (QueryRoots), each pattern starting at
; one, so the code of a function body is never walked.

(function_definition name: (_) @name body: (_)? @body) @definition.function
(class_definition name: (_) @name body: (_)? @body) @definition.class

; x = v, x: T = v, a, b = v, a = b = v: Defs names each target
(assignment) @definition.variable

; type Vector = list[float]: Defs finds the name in the left side
(type_alias_statement) @definition.type

(import_statement) @import
(import_from_statement) @import
