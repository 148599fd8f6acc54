module Shop
  # What every store does: logging and a description.
  class Base
    def initialize(name)
      @name = name
    end

    def describe
      "store #{@name}"
    end

    protected

    def log(message)
      warn "[#{@name}] #{message}"
    end
  end
end
