; C#'s types, delegates, members and a record's positional parameters,
; started from tree-sitter-c-sharp's queries/tags.scm. csharp.go's hooks
; say what a match alone cannot: a declaration's body (Defs), signature,
; visibility and doc (Symbol), and the walk (Finish) that places the
; definitions where it meets them (a member of a type's body, a method
; outside every type a function, not one in code; through code the
; parser gave up on) and types locals, fields and receivers for the
; calls it records.
;
; The query runs from its roots (csharp.go's queryRoots: each
; declaration, wherever it is) and each pattern starts at one, so it reads
; declarations' headers and never walks the code of a body.

(class_declaration name: (_) @name) @definition.class
(struct_declaration name: (_) @name) @definition.class
(record_declaration name: (_) @name) @definition.class
(enum_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(delegate_declaration name: (_) @name) @definition.type

; a positional record parameter is a property
(record_declaration name: (_) (parameter_list (parameter name: (_) @name) @definition.variable))

; members; Defs makes a method outside every type a function. An
; operator, a conversion and an indexer have no name node: Symbol names
; them, and @name on the whole declaration keeps every token of it in
; the symbol's fingerprint.
(method_declaration name: (_) @name) @definition.method
(destructor_declaration name: (_) @name) @definition.method
(constructor_declaration name: (_) @name) @definition.constructor
(operator_declaration) @definition.method @name
(conversion_operator_declaration) @definition.method @name
(indexer_declaration) @definition.method @name
(local_function_statement name: (_) @name) @definition.function
(property_declaration name: (_) @name) @definition.variable
(event_declaration name: (_) @name) @definition.variable
(enum_member_declaration name: (_) @name) @definition.variable
(field_declaration (variable_declaration (variable_declarator name: (_) @name) @definition.variable))
(event_field_declaration (variable_declaration (variable_declarator name: (_) @name) @definition.variable))
