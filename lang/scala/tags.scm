; Scala definitions, references and imports for sdl. Started from the
; grammar's queries/tags.scm (tree-sitter-scala v0.24.0); captures as in
; lang/doc.go: symbol kinds are sdl's, objects are classes, traits are
; interfaces, and a call keeps its receiver.

; Definitions

(package_clause
  name: (package_identifier) @module)


(trait_definition
  name: (identifier) @name
  body: (template_body)? @body) @definition.interface

(enum_definition
  name: (identifier) @name
  body: (_)? @body) @definition.class

(class_definition
  name: (identifier) @name
  body: (template_body)? @body) @definition.class

(object_definition
  name: (identifier) @name
  body: (template_body)? @body) @definition.class

(function_definition
  name: (identifier) @name
  body: (_) @body) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

; a val, var or given of a body or a file is a member; one in a block
; (test("...") { val json = ... } in a suite's body) is code's own. A
; def there stays: calls bind to it (circe's 54 calls of a test's check
; helper).
(template_body
  [(val_definition pattern: (identifier) @name)
   (var_definition pattern: (identifier) @name)
   (given_definition name: (identifier) @name)] @definition.variable)

(with_template_body
  [(val_definition pattern: (identifier) @name)
   (var_definition pattern: (identifier) @name)
   (given_definition name: (identifier) @name)] @definition.variable)

(enum_body
  [(val_definition pattern: (identifier) @name)
   (var_definition pattern: (identifier) @name)
   (given_definition name: (identifier) @name)] @definition.variable)

(compilation_unit
  [(val_definition pattern: (identifier) @name)
   (var_definition pattern: (identifier) @name)
   (given_definition name: (identifier) @name)] @definition.variable)

(val_declaration
  name: (identifier) @name) @definition.variable

(var_declaration
  name: (identifier) @name) @definition.variable

(type_definition
  name: (type_identifier) @name) @definition.type

; References

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    value: (_) @receiver
    field: (identifier) @name)) @reference.call

(call_expression
  function: (generic_function
    function: (identifier) @name)) @reference.call

(call_expression
  function: (generic_function
    function: (field_expression
      value: (_) @receiver
      field: (identifier) @name))) @reference.call

(instance_expression
  [(type_identifier) @name
   (generic_type type: (type_identifier) @name)
   (stable_type_identifier (_) @receiver . (type_identifier) @name .)
   (generic_type type: (stable_type_identifier (_) @receiver . (type_identifier) @name .))]) @reference.new

; every type of "extends A with B" (a field names only the first)
(extends_clause
  [(type_identifier) @name
         (generic_type type: (type_identifier) @name)
         (stable_type_identifier (_) @receiver . (type_identifier) @name .)
         (generic_type type: (stable_type_identifier (_) @receiver . (type_identifier) @name .))]) @reference.extends

; Imports: the declaration, read by the room's Import hook.

(import_declaration) @import
