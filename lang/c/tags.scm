; What C declares, started from tree-sitter-c's queries/tags.scm; cpp.scm
; adds what only C++ has. The query runs from its roots (c.go's
; QueryRoots), those the file declares (QueryRoot: not in a function's
; code), and each pattern starts at one, so it never walks a body.
;
; @name is the declarator as written (a pointer, a function, A::f):
; symbol.go's hooks read the declared name, kind, signature, visibility
; and doc from it, and say where a match alone cannot (Defs: the node a
; symbol spans; Symbol: a prototype in a source file is no symbol).

(function_definition declarator: (_) @name body: (_)? @body) @definition.function

; each declarator of a declaration: prototypes, globals, methods declared
; in their class; a typedef's names
(declaration declarator: (_) @name @definition.variable)
(field_declaration declarator: (_) @name @definition.variable)
(type_definition declarator: (_) @name @definition.type)

; a struct, union or enum with a body; an anonymous one a typedef names
(struct_specifier name: (_) @name body: (_) @body) @definition.class
(union_specifier name: (_) @name body: (_) @body) @definition.class
(enum_specifier name: (_) @name body: (_) @body) @definition.class
(type_definition
  type: [(struct_specifier !name body: (_) @body) (union_specifier !name body: (_) @body) (enum_specifier !name body: (_) @body)] @definition.class
  declarator: [(type_identifier) (primitive_type)] @name)

; a macro with a value or parameters
(preproc_def name: (_) @name value: (_) @body) @definition.variable
(preproc_function_def name: (_) @name value: (_)? @body) @definition.function

; #include "x.h" and #include <x.h>, not #include MACRO
(preproc_include path: [(string_literal) (system_lib_string)]) @import
