; Lua definitions, references and imports for sdl. Started from the
; grammar's queries/tags.scm (tree-sitter-lua v0.4.0); captures as in
; lang/doc.go. A function stored in a table (function M.f, M.f = function,
; { f = function }) is defined in that table: the room's Symbol hook
; names it the container, and reads the parameters captured @_params.

; Definitions

(function_declaration
  name: [
    (identifier) @name
    (dot_index_expression
      field: (identifier) @name)
  ]
  parameters: (parameters)? @_params
  body: (block)? @body) @definition.function

(function_declaration
  name: (method_index_expression
    method: (identifier) @name)
  parameters: (parameters)? @_params
  body: (block)? @body) @definition.method

(assignment_statement
  (variable_list .
    name: [
      (identifier) @name
      (dot_index_expression
        field: (identifier) @name)
    ])
  (expression_list .
    value: (function_definition parameters: (parameters)? @_params body: (block)? @body))) @definition.function

(field
  name: (identifier) @name
  value: (function_definition parameters: (parameters)? @_params body: (block)? @body)) @definition.function

; a name in the table the file returns for a function of the file:
; M.f = f, and return { f = f } (the Symbol hook keeps it when @_alias
; names a function of the file); the value is a reference, so that a call
; bound to the name leads on to the function
(chunk
  (assignment_statement
    (variable_list .
      name: (dot_index_expression
        field: (identifier) @name))
    (expression_list .
      value: (identifier) @_alias)) @definition.variable)

(chunk
  (assignment_statement
    (variable_list .
      name: (dot_index_expression))
    (expression_list .
      value: (identifier) @name @reference.ref)))

(chunk
  (return_statement
    (expression_list .
      (table_constructor
        (field
          name: (identifier) @name
          value: (identifier) @_alias) @definition.variable))))

(chunk
  (return_statement
    (expression_list .
      (table_constructor
        (field
          name: (identifier)
          value: (identifier) @name @reference.ref)))))

; a module's or a class's table: local M = {}
(chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name)
      (expression_list . value: (table_constructor)))) @definition.variable)

; References

(function_call
  name: (identifier) @name
  (#not-eq? @name "require")) @reference.call

(function_call
  name: (dot_index_expression
    table: (_) @receiver
    field: (identifier) @name)) @reference.call

(function_call
  name: (method_index_expression
    table: (_) @receiver
    method: (identifier) @name)) @reference.call

; Imports: require "a.b" and require("a.b") alike, read by the room's Import hook, which finds the
; local name the module is bound to.

(function_call
  name: (identifier) @_require
  arguments: (arguments . (string))
  (#eq? @_require "require")) @import
