namespace Shop.Core.Models
{
    /// <summary>Anything with a total price.</summary>
    public interface IPriced
    {
        decimal Total();

        /// <summary>The total, rounded for display.</summary>
        string Display() => Total().ToString("0.00");
    }
}
