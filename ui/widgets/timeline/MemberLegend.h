#pragma once

#include <QColor>
#include <QList>
#include <QWidget>

namespace groupscope::ui {

// The key to the timeline's colours: one chip per member (client id, and a member id
// suffix where client ids repeat), members of the current generation first and the ones
// that left dimmed, then the keys to the shading. Chips flow onto as many rows as the width
// needs. Pointing at a member's chip asks the plot to bring that member's bars forward.
class MemberLegend : public QWidget {
    Q_OBJECT
public:
    struct Chip {
        QString memberId; // empty for a key that is not a member
        QString text;
        QString toolTip;
        QColor colour;
        bool dimmed = false;
        bool hatched = false;
    };

    explicit MemberLegend(QWidget* parent = nullptr);

    void setChips(const QList<Chip>& chips);
    const QList<Chip>& chips() const { return m_chips; }
    // Where a chip is drawn at the current width.
    QRect chipRect(int index) const { return layoutChips(width()).value(index); }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void memberHovered(const QString& memberId); // empty when the pointer leaves a chip

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    QList<QRect> layoutChips(int width) const;
    int chipAt(const QPoint& position) const;

    QList<Chip> m_chips;
    QString m_hoveredMember;
};

} // namespace groupscope::ui
