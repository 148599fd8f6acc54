namespace Shop.Core.Models;

/// <summary>
/// An item for sale, with its <see cref="Category"/>.
/// </summary>
/// <param name="Name">What the item is called.</param>
public record Item(string Name, decimal Price, Category Category) : IPriced
{
    /// <summary>The price with tax.</summary>
    public decimal Total() => Price * 1.2m;

    public static Item Parse(string line)
    {
        var parts = line.Split(',');
        if (parts.Length < 2) throw new FormatException("need name,price");
        return new Item(parts[0], decimal.Parse(parts[1]), Category.Misc);
    }
}

public enum Category
{
    Misc,
    Food = 2,
    Tools,
}
