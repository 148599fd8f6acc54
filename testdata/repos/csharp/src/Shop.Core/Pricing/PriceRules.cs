using System;
using static System.Math;

namespace Shop.Core.Pricing
{
    /// <summary>Discounts applied to a total.</summary>
    public class PriceRules
    {
        public decimal Discount { get; init; }

        public PriceRules(decimal discount = 0m)
        {
            if (discount < 0 || discount > 1) throw new ArgumentOutOfRangeException(nameof(discount));
            Discount = discount;
        }

        public Money Apply(decimal total)
        {
            return new Money(total * (1 - Discount));
        }
    }

    /// <summary>An amount of money.</summary>
    public readonly struct Money
    {
        public decimal Amount { get; }

        public Money(decimal amount) { Amount = amount; }

        public decimal Round() => Math.Round(Amount, 2);

        public static Money operator +(Money a, Money b) => new Money(a.Amount + b.Amount);
    }

    public static class MoneyExtensions
    {
        /// <summary>Formats an amount with its currency.</summary>
        public static string Format(this Money money, string currency = "EUR")
        {
            return $"{Max(money.Amount, 0):0.00} {currency}";
        }
    }
}
