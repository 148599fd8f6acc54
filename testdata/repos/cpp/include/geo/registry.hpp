#pragma once

#include <map>
#include <memory>
#include <string>
#include <stdexcept>

namespace geo {

/// Registry keeps named values of one type.
template <typename T>
class Registry {
public:
    using Ptr = std::unique_ptr<T>;

    /// Adds value under name; an existing name is an error.
    void add(const std::string& name, Ptr value) {
        if (items_.count(name) != 0) {
            throw std::invalid_argument("duplicate name: " + name);
        }
        items_[name] = std::move(value);
    }

    /// The value under name, or nullptr.
    T* find(const std::string& name) const {
        auto it = items_.find(name);
        return it == items_.end() ? nullptr : it->second.get();
    }

    std::size_t size() const { return items_.size(); }

private:
    std::map<std::string, Ptr> items_;
};

/// The total area of every shape a registry holds.
template <typename T>
double total_area(const Registry<T>& reg);

}  // namespace geo
