; Ruby's definitions, started from tree-sitter-ruby's queries/tags.scm:
; classes, modules, methods, constants and the attributes attr_accessor
; and friends declare. ruby.go's hooks say what a match alone cannot: a
; class's name and container (Symbol), and, in the walk of Finish, which
; of them are symbols and where (it places them: a constant in a method
; body is none, a def in a class body is its method), what depends on the
; statements before a definition (private, module_function, class <<
; self), a class's mixins and the types of its instance variables, and
; everything the code calls.
;
; The query runs from its roots (ruby.go's QueryRoots), each pattern
; starting at one, so the code of a method body is never walked.

(class name: [(constant) (scope_resolution)] @name body: (_)? @body) @definition.class
(module name: [(constant) (scope_resolution)] @name body: (_)? @body) @definition.module
(method name: (_) @name body: (_)? @body) @definition.function
(singleton_method name: (_) @name body: (_)? @body) @definition.function

; Name = value, and Name = Struct.new(...) do ... end, a class
(assignment left: (constant) @name right: (_) @body) @definition.variable
(operator_assignment left: (constant) @name right: (_) @body) @definition.variable

; attr_accessor :a, "b" (and ActiveSupport's cattr_accessor, class_attribute...:
; ruby.go's attrCalls): a variable of the class per name
(call
  !receiver
  method: (identifier) @_attr
  arguments: (argument_list [(simple_symbol) (string) (delimited_symbol)] @name @definition.variable)
  (#any-of? @_attr "attr_accessor" "attr_reader" "attr_writer" "attr"
    "cattr_accessor" "cattr_reader" "cattr_writer" "mattr_accessor" "mattr_reader" "mattr_writer" "class_attribute"))
