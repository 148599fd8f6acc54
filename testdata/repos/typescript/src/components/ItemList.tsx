import React, { useState } from 'react';
import type { Item } from '../models/item';
import { formatPrice } from '@/utils';

interface Props {
  items: Item[];
  onSelect?: (item: Item) => void;
}

/** ItemRow shows one item with its price. */
const ItemRow = ({ item, onSelect }: { item: Item; onSelect?: Props['onSelect'] }) => (
  <li onClick={() => onSelect?.(item)}>
    {item.name}: {formatPrice(item.finalPrice())}
  </li>
);

/** ItemList renders the items as a list. */
export function ItemList({ items, onSelect }: Props) {
  const [selected, setSelected] = useState<Item | null>(null);
  return (
    <ul>
      {items.map((it) => (
        <ItemRow key={it.id} item={it} onSelect={(i) => { setSelected(i); onSelect?.(i); }} />
      ))}
      {selected && <Badge label={selected.name} />}
    </ul>
  );
}

function Badge({ label }: { label: string }) {
  return <span className="badge">{label}</span>;
}

export class Counter extends React.Component<{ start: number }, { n: number }> {
  state = { n: this.props.start };

  increment = () => {
    this.setState({ n: this.state.n + 1 });
  };

  render() {
    return <button onClick={this.increment}>{this.state.n}</button>;
  }
}
