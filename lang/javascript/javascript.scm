; JavaScript's definitions, for the three grammars of the family (the
; TypeScript grammars extend JavaScript's), started from
; tree-sitter-javascript's queries/tags.scm. The hooks of javascript.go say
; what a match alone cannot: which of two definitions of one node is the
; symbol (a named function a variable holds is the variable's), a module
; level statement's bound names (Defs), the name a CommonJS assignment
; gives, signatures, visibility and docs (Symbol). The walk (Finish)
; types locals and records calls, meeting each symbol where it is.
;
; The query runs from its roots (QueryRoots: the kinds each pattern
; starts at), so it reads declarations and never walks a body's code.

; functions and classes, wherever they are declared
(function_declaration name: (_) @name body: (_) @body) @definition.function
(generator_function_declaration name: (_) @name body: (_) @body) @definition.function
(function_expression name: (_) @name body: (_) @body) @definition.function
(generator_function name: (_) @name body: (_) @body) @definition.function
(class_declaration name: (_) @name body: (_) @body) @definition.class
(class name: (_) @name body: (_) @body) @definition.class

; a function or class a variable holds is named by the variable
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)] @_value) @definition.function
(variable_declarator name: (identifier) @name value: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)] @_value)) @definition.function
(variable_declarator name: (identifier) @name value: (class) @_value) @definition.class

; a class's methods
(class_body (method_definition name: (_) @name body: (_)? @body) @definition.method)

; a statement of the module or of a namespace (queryRoot says which,
; also where the parser gave up there): a declaration's bound names are
; variables (Defs names them), an object literal's functions the methods of
; its variable
(lexical_declaration) @definition.variable
(variable_declaration) @definition.variable
(variable_declarator name: (identifier)
  value: (object [(method_definition name: (_) @name) (pair key: (_) @name value: [(arrow_function) (function_expression) (generator_function)] @_value)] @definition.method))

; CommonJS: exports.x = ..., module.exports = function, X.prototype.m =
; function (Defs says which assignment defines what)
(expression_statement (assignment_expression left: (member_expression) @name right: (_) @_value)) @definition.function
(expression_statement (assignment_expression left: (member_expression) @_left
  right: (object [(method_definition name: (_) @name) (pair key: (_) @name value: [(arrow_function) (function_expression) (generator_function)] @_value)] @definition.function))
  (#eq? @_left "module.exports"))

; export default function () {}, export default class {}
(export_statement "default" @name value: [(function_expression) (arrow_function) (generator_function)] @definition.function)
(export_statement "default" @name value: (class) @definition.class)
